package dev.switchboard.engine.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code allowed-params} follows every provider type of a model's pool, Responses upstreams included. */
class AllowedParamsTest {
    private static ProviderConfig provider(String id, ProviderType type) {
        return new ProviderConfig(id, type, URI.create("https://api.openai.com/v1"), List.of("k"), Timeouts.DEFAULT, Map.of());
    }

    private static ModelEntry model(String id, String... providers) {
        return new ModelEntry(id, List.of(), Optional.empty(), "openai", 100_000, 4096,
                new Capabilities(true, false, true, false, true), ReasoningProfile.NONE, Pricing.FREE, List.of(),
                java.util.Arrays.stream(providers).map(p -> new RouteTarget(p, "gpt")).toList());
    }

    private final Catalog catalog = new Catalog(List.of(provider("chat", ProviderType.OPENAI),
            provider("responses", ProviderType.OPENAI_RESPONSES)),
            List.of(model("only-responses", "responses"), model("both", "chat", "responses"), model("only-chat", "chat")));

    @Test
    void aResponsesPoolListsWhatTheResponsesApiTakesAndNotWhatItLacks() {
        assertThat(AllowedParams.of(catalog.resolve("only-responses").orElseThrow(), catalog))
                .contains("prompt_cache_key", "service_tier", "verbosity", "safety_identifier", "reasoning_effort", "stop",
                        "tools", "response_format")
                .contains("logprobs", "top_logprobs")
                .doesNotContain("seed", "presence_penalty", "frequency_penalty", "n", "logit_bias", "top_k");
        assertThat(AllowedParams.providerTypes(catalog.resolve("only-responses").orElseThrow(), catalog))
                .containsExactly(ProviderType.OPENAI_RESPONSES);
    }

    @Test
    void aMixedPoolListsOnlyWhatBothCarry() {
        assertThat(AllowedParams.of(catalog.resolve("both").orElseThrow(), catalog))
                .contains("prompt_cache_key", "service_tier", "verbosity")
                .contains("logprobs", "top_logprobs")
                .doesNotContain("seed", "safety_identifier");
        assertThat(AllowedParams.of(catalog.resolve("only-chat").orElseThrow(), catalog)).contains("seed", "logprobs");
    }
}
