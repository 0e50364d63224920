package dev.switchboard.server.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The {@code billing:} section: how long a credit hold outlives a gateway that died before settling its
 * request ({@code hold_timeout}), and how often expired holds are looked for ({@code sweep_every}).
 */
public record BillingSettings(Duration holdTimeout, Duration sweepEvery) {
    /** A hold outlives the longest request (the default total timeout is far shorter); swept every minute. */
    public static final BillingSettings DEFAULT = new BillingSettings(Duration.ofHours(1), Duration.ofMinutes(1));

    public BillingSettings {
        Objects.requireNonNull(holdTimeout, "holdTimeout");
        Objects.requireNonNull(sweepEvery, "sweepEvery");
        if (holdTimeout.isNegative() || holdTimeout.isZero() || sweepEvery.isNegative() || sweepEvery.isZero()) {
            throw new IllegalArgumentException("billing durations must be positive");
        }
    }
}
