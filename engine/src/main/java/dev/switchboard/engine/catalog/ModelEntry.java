package dev.switchboard.engine.catalog;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A model the gateway serves: its public id, the aliases that resolve to it, its limits, flags, prices,
 * the plans that cover it (a plan may also name the models it covers: {@link Plans#covers}), whether
 * pay-as-you-go callers may use it, and its ordered provider pool.
 * <ul>
 *   <li>{@code plans}: ids of plans under which the model costs the balance nothing (usage is still
 *       recorded).</li>
 *   <li>{@code payAsYouGo}: whether a caller whose plan does not cover the model may use it, paying from
 *       the balance ({@code payg: false} in config reserves the model for the plans that cover it).</li>
 *   <li>{@code refusedParams}: sampling parameters the model refuses (OpenAI's reasoning models answer 400
 *       to a non-default {@code temperature}, for instance); they are never listed as allowed, and are
 *       dropped rather than sent. Names are chat-completions parameter names from
 *       {@link AllowedParams#REFUSABLE}.</li>
 *   <li>{@code responsesApi}: whether the vendor serves the model (or its reasoning tool calls) only through
 *       OpenAI's Responses API, so that a chat-completions upstream at the vendor itself cannot reach it.</li>
 *   <li>{@code source}: where the prices and limits were taken from, and when.</li>
 * </ul>
 */
public record ModelEntry(String id, List<String> aliases, Optional<String> displayName, String ownedBy,
                         long contextLength, int maxOutputTokens, Capabilities capabilities,
                         ReasoningProfile reasoning, Pricing pricing, List<String> plans, List<RouteTarget> route,
                         Set<String> refusedParams, ResponsesRequirement responsesApi, Optional<CatalogSource> source,
                         boolean payAsYouGo) {
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
        refusedParams = Set.copyOf(refusedParams);
        Objects.requireNonNull(responsesApi, "responsesApi");
        Objects.requireNonNull(source, "source");
        if (route.isEmpty()) {
            throw new IllegalArgumentException("model " + id + " has no route");
        }
        if (contextLength <= 0 || maxOutputTokens <= 0) {
            throw new IllegalArgumentException("model " + id + " needs positive context_length and max_output_tokens");
        }
        for (String p : refusedParams) {
            if (!AllowedParams.REFUSABLE.contains(p)) {
                throw new IllegalArgumentException("model " + id + " refuses '" + p + "', which is not a sampling parameter "
                        + AllowedParams.REFUSABLE);
            }
        }
    }

    /** A model pay-as-you-go callers may use. */
    public ModelEntry(String id, List<String> aliases, Optional<String> displayName, String ownedBy, long contextLength,
                      int maxOutputTokens, Capabilities capabilities, ReasoningProfile reasoning, Pricing pricing,
                      List<String> plans, List<RouteTarget> route, Set<String> refusedParams,
                      ResponsesRequirement responsesApi, Optional<CatalogSource> source) {
        this(id, aliases, displayName, ownedBy, contextLength, maxOutputTokens, capabilities, reasoning, pricing, plans, route,
                refusedParams, responsesApi, source, true);
    }

    /** A model that refuses no parameter, needs no Responses API and names no source. */
    public ModelEntry(String id, List<String> aliases, Optional<String> displayName, String ownedBy, long contextLength,
                      int maxOutputTokens, Capabilities capabilities, ReasoningProfile reasoning, Pricing pricing,
                      List<String> plans, List<RouteTarget> route) {
        this(id, aliases, displayName, ownedBy, contextLength, maxOutputTokens, capabilities, reasoning, pricing, plans, route,
                Set.of(), ResponsesRequirement.NOT_NEEDED, Optional.empty());
    }

    /** The same model answering to {@code newAliases} instead. */
    public ModelEntry withAliases(List<String> newAliases) {
        return new ModelEntry(id, newAliases, displayName, ownedBy, contextLength, maxOutputTokens, capabilities, reasoning,
                pricing, plans, route, refusedParams, responsesApi, source, payAsYouGo);
    }
}
