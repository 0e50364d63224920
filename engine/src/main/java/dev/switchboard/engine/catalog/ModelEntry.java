package dev.switchboard.engine.catalog;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A model the gateway serves: its public id, the aliases that resolve to it, its limits, flags, prices,
 * the plans that include it (empty: every plan and pay-as-you-go), and its ordered provider pool.
 */
public record ModelEntry(String id, List<String> aliases, Optional<String> displayName, String ownedBy,
                         long contextLength, int maxOutputTokens, Capabilities capabilities,
                         ReasoningProfile reasoning, Pricing pricing, List<String> plans, List<RouteTarget> route) {
    public ModelEntry {
        Objects.requireNonNull(id, "id");
        aliases = List.copyOf(aliases);
        Objects.requireNonNull(displayName, "displayName");
        Objects.requireNonNull(ownedBy, "ownedBy");
        Objects.requireNonNull(capabilities, "capabilities");
        Objects.requireNonNull(reasoning, "reasoning");
        Objects.requireNonNull(pricing, "pricing");
        plans = List.copyOf(plans);
        route = List.copyOf(route);
        if (route.isEmpty()) {
            throw new IllegalArgumentException("model " + id + " has no route");
        }
        if (contextLength <= 0 || maxOutputTokens <= 0) {
            throw new IllegalArgumentException("model " + id + " needs positive context_length and max_output_tokens");
        }
    }

    /** Whether a caller on {@code plan} may use this model. */
    public boolean availableOn(String plan) {
        return plans.isEmpty() || plans.contains(plan);
    }
}
