package dev.switchboard.engine.media;

import java.time.Duration;
import java.util.Objects;

/**
 * Bounds of one URL fetch: redirects followed (each one checked again), body size, and the time of the
 * whole fetch (resolution, connection, redirects and body included).
 */
public record FetchLimits(int maxRedirects, long maxBytes, Duration timeout) {
    /** Three redirects, 20 MB, 10 seconds. */
    public static final FetchLimits DEFAULT = new FetchLimits(3, 20L * 1024 * 1024, Duration.ofSeconds(10));

    public FetchLimits {
        Objects.requireNonNull(timeout, "timeout");
        if (maxRedirects < 0 || maxBytes <= 0 || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("fetch limits must be positive");
        }
    }
}
