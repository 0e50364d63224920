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
 */
public record LimitsConfig(OnStoreFailure onStoreFailure, Duration storeTimeout) {
    public static final LimitsConfig DEFAULT = new LimitsConfig(OnStoreFailure.ALLOW, Duration.ofSeconds(1));

    public LimitsConfig {
        Objects.requireNonNull(onStoreFailure, "onStoreFailure");
        Objects.requireNonNull(storeTimeout, "storeTimeout");
    }
}
