package dev.switchboard.engine.billing;

import dev.switchboard.engine.catalog.Cost;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.Plans;
import dev.switchboard.engine.pipeline.Admitted;
import dev.switchboard.engine.pipeline.RequestOutcome;
import dev.switchboard.engine.pipeline.Settlement;
import java.time.Clock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Money's settlement: a billed request (a generation some model answered, wholly or in part) is charged for
 * the model that answered, at that model's prices ({@link Cost}), over the usage its outcome carries: the
 * upstream's report, or the gateway's estimate for a cut stream or a client that left (input plus the output
 * delivered). Under a plan that covers the answering model the charge is 0; the usage record is written
 * either way. The hold is released in the same transaction ({@link BalanceStore#settle}), idempotently by
 * request id. A request that is not billable (failed, or a token count) only has its hold released.
 *
 * <p>A settlement is never given up at the first failure of the store: the answer is already delivered, so
 * the charge must be written. A busy or unreachable database is retried with growing pauses for up to
 * {@code retryFor} (settling is idempotent by request id, so a retry after a lost reply charges nothing twice);
 * only then is the usage record logged in full for the operator and the failure passed on.
 */
public final class MoneySettlement implements Settlement {
    private static final Logger LOG = LoggerFactory.getLogger(MoneySettlement.class);

    private final Plans plans;
    private final BalanceStore store;
    private final Clock clock;

    /** How long a settlement keeps trying a failing store by default. */
    public static final Duration RETRY_FOR = Duration.ofMinutes(2);
    private static final long FIRST_PAUSE_MILLIS = 20;
    private static final long LONGEST_PAUSE_MILLIS = 2_000;

    private final Duration retryFor;

    public MoneySettlement(Plans plans, BalanceStore store, Clock clock) {
        this(plans, store, clock, RETRY_FOR);
    }

    public MoneySettlement(Plans plans, BalanceStore store, Clock clock, Duration retryFor) {
        this.plans = Objects.requireNonNull(plans, "plans");
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.retryFor = Objects.requireNonNull(retryFor, "retryFor");
    }

    @Override
    public void settle(Admitted admitted, RequestOutcome outcome) {
        if (!outcome.billable()) {
            // A token count holds nothing (and is never billed); anything else releases what it held.
            if (outcome.purpose() != dev.switchboard.engine.pipeline.AdmissionRequest.Purpose.COUNT_TOKENS) {
                persist("release", outcome.requestId(), () -> store.release(outcome.requestId()));
            }
            return;
        }
        UsageRecord record = record(outcome);
        Settled settled;
        try {
            settled = persist("settle", outcome.requestId(), () -> store.settle(record));
        } catch (RuntimeException e) {
            LOG.atError().addKeyValue("request_id", outcome.requestId()).addKeyValue("usage_record", record)
                    .log("settlement lost: the charge could not be written; its hold stays until the hold sweeper releases it");
            throw e;
        }
        if (settled.alreadySettled()) {
            LOG.atWarn().addKeyValue("request_id", outcome.requestId()).log("settlement repeated; nothing charged again");
        } else if (settled.chargedNanos() < record.chargedNanos()) {
            // The prompt was longer than its estimate and the balance could not pay it all; never below zero.
            LOG.atWarn().addKeyValue("request_id", outcome.requestId()).addKeyValue("user_id", record.userId())
                    .addKeyValue("cost_nanos", record.chargedNanos()).addKeyValue("charged_nanos", settled.chargedNanos())
                    .log("balance could not cover the whole cost");
        }
    }

    /** {@code work}, tried again with growing pauses while it fails, for up to {@link #retryFor}. */
    private <T> T persist(String what, String requestId, Supplier<T> work) {
        long deadline = System.nanoTime() + retryFor.toNanos();
        long pause = FIRST_PAUSE_MILLIS;
        for (int attempt = 1; ; attempt++) {
            try {
                return work.get();
            } catch (RuntimeException e) {
                if (System.nanoTime() + pause * 1_000_000 > deadline) {
                    throw e;
                }
                if (attempt == 1) {
                    LOG.atWarn().addKeyValue("request_id", requestId).addKeyValue("error", String.valueOf(e.getMessage()))
                            .log(what + " failed; trying again");
                }
                try {
                    Thread.sleep(pause);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
                pause = Math.min(pause * 2, LONGEST_PAUSE_MILLIS);
            }
        }
    }

    /** The usage record of a billed outcome, charged in full unless a plan covers the answering model. */
    UsageRecord record(RequestOutcome outcome) {
        RequestOutcome.Answered answered = outcome.answered().orElseThrow();
        ModelEntry model = answered.candidate().model();
        long cost = Cost.of(model.pricing(), outcome.usage());
        String plan = outcome.caller().plan();
        boolean covered = plans.access(plan, model) == Plans.Access.COVERED;
        return new UsageRecord(outcome.requestId(), outcome.caller().userId(), outcome.caller().keyId(), outcome.endpoint(),
                outcome.requestedModel(), model.id(), answered.target().providerId(), outcome.streamed(), outcome.usage(), cost,
                covered ? 0 : cost, covered ? Optional.of(plan) : Optional.empty(), outcome.ending().name(), outcome.latency(),
                clock.instant().truncatedTo(ChronoUnit.MILLIS));
    }
}
