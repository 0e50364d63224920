package dev.switchboard.server.config;

import dev.switchboard.engine.limits.OnStoreFailure;
import java.time.Duration;
import java.util.Objects;

/**
 * The {@code limits:} section: what happens to requests when the shared limit store (Redis) cannot be reached, and
 * how long one store operation may take before it counts as failed.
 *
 * @param onStoreFailure {@code allow} (default: serve uncounted) or {@code deny} (refuse with 503)
 * @param storeTimeout   the longest one check may wait for Redis (default 1s)
 * @param redisPrefix    put before every Redis key of the limits (default {@code switchboard:}), so deployments can
 *                       share one Redis: instances with the same prefix share their counters
 */
public record LimitsConfig(OnStoreFailure onStoreFailure, Duration storeTimeout, String redisPrefix) {
    public static final String DEFAULT_PREFIX = "switchboard:";
    public static final LimitsConfig DEFAULT = new LimitsConfig(OnStoreFailure.ALLOW, Duration.ofSeconds(1), DEFAULT_PREFIX);

    public LimitsConfig {
        Objects.requireNonNull(onStoreFailure, "onStoreFailure");
        Objects.requireNonNull(storeTimeout, "storeTimeout");
        Objects.requireNonNull(redisPrefix, "redisPrefix");
    }
}
