package dev.switchboard.engine.pipeline;

/**
 * The settlement port of the pipeline: called exactly once for every admitted request when it is over,
 * whether it was answered, failed, cut off by the upstream, left by its client, or was a token count. This
 * is where the answering model's cost is charged and the rest of the hold released, where token caps are
 * corrected to the actual count, and where the usage record is written; {@link RequestOutcome#billable()}
 * says whether there is anything to charge.
 *
 * <p>Implementations are shared and thread-safe, and must be idempotent per request id (a ledger entry
 * keyed by it), so a settlement repeated after a crash cannot charge twice. They should not throw: the
 * answer has usually left already. A failure is theirs to log and repair (a hold left behind is released
 * by its deadline); the pipeline logs and swallows what they throw.
 */
@FunctionalInterface
public interface Settlement {
    /** The first implementation: records nothing. */
    Settlement RECORD_NOTHING = (admitted, outcome) -> { };

    void settle(Admitted admitted, RequestOutcome outcome);
}
