package dev.switchboard.model;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Thrown to abort a request with an error the caller should see; the edge renders {@link #error()} in the
 * caller's format and, when present, sends {@link #retryAfter()} as a {@code Retry-After} header.
 */
public final class GatewayException extends RuntimeException {
    private final GatewayError error;
    private final Optional<Duration> retryAfter;

    public GatewayException(GatewayError error) {
        this(error, Optional.empty());
    }

    public GatewayException(GatewayError error, Optional<Duration> retryAfter) {
        super(error.message(), null, false, false);
        this.error = Objects.requireNonNull(error, "error");
        this.retryAfter = Objects.requireNonNull(retryAfter, "retryAfter");
    }

    public GatewayError error() {
        return error;
    }

    public Optional<Duration> retryAfter() {
        return retryAfter;
    }
}
