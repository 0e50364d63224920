package dev.switchboard.engine.limits;

import dev.switchboard.engine.pipeline.Admitted;
import dev.switchboard.engine.route.Candidate;
import dev.switchboard.model.RateLimitStatus;
import java.util.Objects;
import java.util.Optional;

/**
 * What the limits granted one request: the hold its settlement corrects (or a later refusal releases), and where
 * the caller stands, for the response headers. Limits never skip a candidate: every fallback was counted in the
 * estimate already.
 */
public record LimitsAdmitted(LimitHold hold, Optional<RateLimitStatus> status, LimitStore store) implements Admitted {
    public LimitsAdmitted {
        Objects.requireNonNull(hold, "hold");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(store, "store");
    }

    @Override
    public Optional<String> refusal(Candidate candidate) {
        return Optional.empty();
    }

    @Override
    public Optional<RateLimitStatus> rateLimits() {
        return status;
    }

    @Override
    public void release() {
        store.release(hold);
    }
}
