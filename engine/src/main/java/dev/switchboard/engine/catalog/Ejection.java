package dev.switchboard.engine.catalog;

import java.time.Duration;
import java.util.Objects;

/**
 * When the failover loop stops sending live traffic to one of a provider's route targets (outlier ejection, the
 * provider's {@code breaker} setting): after {@code failures} outage failures in a row the target is skipped for
 * {@code cooldown}, then probed by one request. {@link #OFF} never ejects.
 */
public record Ejection(int failures, Duration cooldown) {
    /** Five failures in a row, ten seconds off: what a provider gets unless its config says otherwise. */
    public static final Ejection DEFAULT = new Ejection(5, Duration.ofSeconds(10));
    /** Never eject (for a provider that must be tried every time, e.g. the only one there is). */
    public static final Ejection OFF = new Ejection(Integer.MAX_VALUE, Duration.ZERO);

    public Ejection {
        Objects.requireNonNull(cooldown, "cooldown");
        if (failures < 1 || cooldown.isNegative()) {
            throw new IllegalArgumentException("failures must be at least 1 and cooldown not negative");
        }
    }

    public boolean enabled() {
        return failures != Integer.MAX_VALUE;
    }
}
