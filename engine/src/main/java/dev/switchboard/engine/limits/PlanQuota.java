package dev.switchboard.engine.limits;

import dev.switchboard.engine.catalog.Plan;
import dev.switchboard.engine.catalog.Plans;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.stream.Collectors;

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

        /**
         * The quotas of the configured plans ({@code plans:} with their {@code rpm} and {@code daily_tokens}); a
         * plan id that is not configured (pay-as-you-go, or a plan removed from the config) has {@link #NONE}.
         */
        static Lookup of(Plans plans) {
            Map<String, PlanQuota> byId = plans.all().stream().collect(Collectors.toUnmodifiableMap(Plan::id, PlanQuota::of));
            return plan -> byId.getOrDefault(plan, PlanQuota.NONE);
        }
    }

    /** The quota {@code plan} sets for each user on it. */
    public static PlanQuota of(Plan plan) {
        return new PlanQuota(plan.rpm().isPresent() ? OptionalLong.of(plan.rpm().getAsInt()) : OptionalLong.empty(),
                plan.dailyTokens());
    }
}
