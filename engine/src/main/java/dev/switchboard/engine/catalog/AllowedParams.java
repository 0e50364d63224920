package dev.switchboard.engine.catalog;

import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The chat-completions parameters a model accepts, derived from its capability flags, from what every
 * provider type in its pool can carry, and from the sampling parameters the model refuses, so the list
 * never names a parameter that the model, or the provider that happens to answer after a failover, would
 * reject or silently lose.
 */
public final class AllowedParams {
    /** Always accepted: consumed by the gateway itself or understood by every provider. */
    private static final List<String> ALWAYS = List.of("model", "messages", "max_tokens", "max_completion_tokens",
            "temperature", "top_p", "stop", "stream", "stream_options", "models", "transforms", "user", "metadata",
            "ignore_defaults", "skill", "skills");
    private static final List<String> TOOLS = List.of("tools", "tool_choice", "parallel_tool_calls");
    private static final List<String> REASONING = List.of("reasoning_effort", "thinking", "thinking_budget", "reasoning");
    private static final List<String> JSON = List.of("response_format");

    /**
     * The sampling parameters a model may refuse ({@link ModelEntry#refusedParams()}): the ones vendors
     * reject for some models (OpenAI's reasoning models, Claude from Opus 4.7 on) while the gateway would
     * otherwise carry them.
     */
    public static final Set<String> REFUSABLE = Set.of("temperature", "top_p", "top_k", "seed", "presence_penalty",
            "frequency_penalty", "logit_bias", "logprobs", "top_logprobs", "n", "stop");

    /** Sampling extras each provider type carries natively. */
    private static final Map<ProviderType, Set<String>> EXTRAS = new EnumMap<>(Map.of(
            ProviderType.OPENAI, Set.of("seed", "presence_penalty", "frequency_penalty", "logit_bias", "logprobs",
                    "top_logprobs", "n", "service_tier", "prediction", "verbosity", "prompt_cache_key"),
            // The Responses API has no seed, penalties or n; these chat-completions fields mean the same there
            // (logprobs as include: message.output_text.logprobs).
            ProviderType.OPENAI_RESPONSES, Set.of("service_tier", "verbosity", "prompt_cache_key", "safety_identifier",
                    "logprobs", "top_logprobs"),
            // Anthropic has no logprobs: a request asking for them there gets its answer without them, and the
            // x-switchboard-dropped-fields header says so.
            ProviderType.ANTHROPIC, Set.of("top_k"),
            ProviderType.GEMINI, Set.of("top_k", "seed", "presence_penalty", "frequency_penalty", "logprobs",
                    "top_logprobs"),
            ProviderType.SIMULATOR, Set.of("top_k", "seed", "presence_penalty", "frequency_penalty")));

    private AllowedParams() {
    }

    /** The sorted parameter names {@code model} accepts on the chat-completions format. */
    public static Set<String> of(ModelEntry model, Catalog catalog) {
        Set<String> out = new TreeSet<>(ALWAYS);
        Capabilities c = model.capabilities();
        if (c.supportsTools()) {
            out.addAll(TOOLS);
        }
        if (c.supportsReasoning()) {
            out.addAll(REASONING);
        }
        if (c.supportsJson()) {
            out.addAll(JSON);
        }
        Set<String> extras = null;
        for (ProviderType t : providerTypes(model, catalog)) {
            Set<String> e = EXTRAS.getOrDefault(t, Set.of());
            if (extras == null) {
                extras = new TreeSet<>(e);
            } else {
                extras.retainAll(e);
            }
        }
        if (extras != null) {
            out.addAll(extras);
        }
        out.removeAll(model.refusedParams());
        return out;
    }

    /** The distinct provider types of the model's pool, in pool order. */
    public static Set<ProviderType> providerTypes(ModelEntry model, Catalog catalog) {
        Set<ProviderType> types = new LinkedHashSet<>();
        for (RouteTarget t : model.route()) {
            catalog.provider(t.providerId()).ifPresent(p -> types.add(p.type()));
        }
        return types;
    }
}
