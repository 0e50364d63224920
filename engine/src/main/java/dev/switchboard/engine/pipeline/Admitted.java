package dev.switchboard.engine.pipeline;

import dev.switchboard.engine.route.CandidateGate;
import dev.switchboard.model.RateLimitStatus;
import java.util.Optional;

/**
 * What admission granted one request, handed back to the {@link Settlement} when the request is over.
 * Implementations carry what they hold (a reservation id and amount, reserved tokens). As a
 * {@link CandidateGate} it is asked before each candidate is tried: a fallback priced above what is held
 * may raise the hold first, or be refused (skipped) when it cannot be afforded. Used by one request's
 * thread only.
 */
public interface Admitted extends CandidateGate {
    /** Nothing held, every candidate may be tried. */
    Admitted NOTHING_HELD = candidate -> Optional.empty();

    /** Where the caller stands against its rate limits after this admission, for the response headers. */
    default Optional<RateLimitStatus> rateLimits() {
        return Optional.empty();
    }

    /**
     * Undoes everything this admission holds, as if the request had never come: called instead of the settlement
     * when a later admission refused the request (money after limits), so a refused request consumes nothing.
     */
    default void release() {
    }
}
