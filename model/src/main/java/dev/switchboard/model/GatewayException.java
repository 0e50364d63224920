package dev.switchboard.model;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Thrown to abort a request with an error the caller should see; the edge renders {@link #error()} in the
 * caller's format and, when present, sends {@link #retryAfter()} as a {@code Retry-After} header. A refusal by
 * a rate limit also carries where the caller stands ({@link #rateLimits()}), for the rate-limit headers.
 */
public final class GatewayException extends RuntimeException {
    private final GatewayError error;
    private final Optional<Duration> retryAfter;
    private final Optional<RateLimitStatus> rateLimits;

    public GatewayException(GatewayError error) {
        this(error, Optional.empty());
    }

    public GatewayException(GatewayError error, Optional<Duration> retryAfter) {
        this(error, retryAfter, Optional.empty());
    }

    public GatewayException(GatewayError error, Optional<Duration> retryAfter, Optional<RateLimitStatus> rateLimits) {
        super(error.message(), null, false, false);
        this.error = Objects.requireNonNull(error, "error");
        this.retryAfter = Objects.requireNonNull(retryAfter, "retryAfter");
        this.rateLimits = Objects.requireNonNull(rateLimits, "rateLimits");
    }

    /** Where the caller stands against its rate limits, when a rate limit refused the request. */
    public Optional<RateLimitStatus> rateLimits() {
        return rateLimits;
    }

    public GatewayError error() {
        return error;
    }

    public Optional<Duration> retryAfter() {
        return retryAfter;
    }
}
