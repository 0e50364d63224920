package dev.switchboard.engine.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The per-model facts translation relies on: refused parameters, budget ranges, and how allowed-params uses them. */
class CatalogFactsTest {
    private static final ProviderConfig OPENAI = new ProviderConfig("openai", ProviderType.OPENAI, URI.create("https://api.openai.com/v1"),
            List.of("k"), Timeouts.DEFAULT, Map.of());

    private static ModelEntry model(Set<String> refused) {
        return new ModelEntry("m", List.of(), Optional.empty(), "openai", 1000, 100, new Capabilities(true, false, true, false, true),
                new ReasoningProfile(ReasoningProfile.Family.ALWAYS, List.of()), Pricing.FREE, List.of(),
                List.of(new RouteTarget("openai", "m")), refused, ResponsesRequirement.NOT_NEEDED, Optional.empty());
    }

    @Test
    void allowedParamsNeverListWhatTheModelRefuses() {
        ModelEntry plain = model(Set.of());
        ModelEntry reasoning = model(Set.of("temperature", "top_p", "logprobs"));
        Catalog catalog = new Catalog(List.of(OPENAI), List.of(plain));

        assertThat(AllowedParams.of(plain, catalog)).contains("temperature", "top_p", "logprobs", "seed");
        assertThat(AllowedParams.of(reasoning, catalog)).doesNotContain("temperature", "top_p", "logprobs").contains("seed", "tools");
    }

    @Test
    void onlySamplingParametersCanBeRefused() {
        assertThatThrownBy(() -> model(Set.of("messages"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("refuses 'messages', which is not a sampling parameter");
    }

    @Test
    void aBudgetRangeClampsAndStaysBelowMaxTokensWhenTheUpstreamSaysSo() {
        ThinkingBudget.Range gemini = new ThinkingBudget.Range(512, 24576, false);
        ThinkingBudget.Range anthropic = new ThinkingBudget.Range(1024, 63999, true);

        assertThat(gemini.clamp(100, 8000)).isEqualTo(512);
        assertThat(gemini.clamp(60000, 8000)).isEqualTo(24576);
        assertThat(anthropic.clamp(60000, 8000)).isEqualTo(7999);
        assertThat(anthropic.clamp(10, 8000)).isEqualTo(1024);
        assertThatThrownBy(() -> new ThinkingBudget.Range(0, 10, false)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ThinkingBudget.Range(10, 5, false)).isInstanceOf(IllegalArgumentException.class);
    }
}
