package dev.switchboard.engine.pipeline;

/**
 * The admission port of the pipeline: whether a request may run, decided after its candidates are prepared
 * and before any upstream call. This is where request-rate and token limits (429) and money (402, 403
 * {@code model_access_denied}) plug in; what is held here (a credit reservation, reserved tokens) is
 * closed by the {@link Settlement} of the same request, which the pipeline calls exactly once for every
 * admitted request.
 *
 * <p>Implementations are shared by all requests and must be thread-safe. They must reserve atomically
 * (one conditional update, one server-side script): two requests checked at once must never both be
 * admitted when only one fits.
 */
@FunctionalInterface
public interface Admission {
    /** The first implementation: every request is admitted and nothing is held. */
    Admission ADMIT_ALL = request -> Admitted.NOTHING_HELD;

    /**
     * Admits the request or refuses it.
     *
     * @throws dev.switchboard.model.GatewayException the refusal the caller gets (e.g. 429
     *     {@code rate_limit_error}, 402 {@code insufficient_quota}); nothing may be held then, and no
     *     settlement follows
     */
    Admitted admit(AdmissionRequest request);
}
