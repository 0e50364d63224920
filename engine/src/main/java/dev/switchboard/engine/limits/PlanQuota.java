package dev.switchboard.engine.limits;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * The limits a plan sets for each user on it, across all of the user's keys: requests per minute and tokens per
 * UTC day; each absent when the plan has none.
 */
public record PlanQuota(OptionalLong rpm, OptionalLong dailyTokens) {
    public static final PlanQuota NONE = new PlanQuota(OptionalLong.empty(), OptionalLong.empty());

    public PlanQuota {
        Objects.requireNonNull(rpm, "rpm");
        Objects.requireNonNull(dailyTokens, "dailyTokens");
    }

    /** The quota of each plan, by plan id; plans without limits (or unknown) have {@link #NONE}. */
    @FunctionalInterface
    public interface Lookup {
        Lookup NONE = plan -> PlanQuota.NONE;

        PlanQuota of(String plan);
    }
}
