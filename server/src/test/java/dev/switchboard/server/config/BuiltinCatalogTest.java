package dev.switchboard.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.ReasoningProfile.Family;
import dev.switchboard.engine.catalog.RouteTarget;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BuiltinCatalogTest {

    private static final String ALL_PROVIDERS = """
            providers:
              openai: {type: openai, keys: [k]}
              anthropic: {type: anthropic, keys: [k]}
              gemini: {type: gemini, keys: [k]}
              openrouter: {type: openai, base_url: https://openrouter.ai/api/v1, keys: [k]}
            """;

    /** The shipped file bound strictly, as if an operator had written it with all four providers. */
    private static GatewayConfig shippedStrict() {
        return ConfigSupport.parse(ALL_PROVIDERS + BuiltinCatalog.Resources.text(BuiltinCatalog.RESOURCE));
    }

    @Test
    void theShippedCatalogValidatesStrictly() {
        List<ModelEntry> models = shippedStrict().catalog().models();

        assertThat(models).extracting(ModelEntry::id).containsExactly(
                "gpt-4o", "gpt-4o-mini", "gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano", "o3", "o4-mini", "gpt-5", "gpt-5-mini",
                "gpt-5-nano", "claude-opus-4-1", "claude-sonnet-4-5", "claude-sonnet-4", "claude-haiku-4-5", "claude-3-5-haiku",
                "gemini-2.5-pro", "gemini-2.5-flash", "gemini-2.5-flash-lite", "deepseek-chat", "deepseek-reasoner",
                "llama-3.3-70b", "qwen3-235b-a22b", "kimi-k2", "grok-4", "mistral-medium-3.1");
    }

    @Test
    void everyShippedModelIsRoutedPricedAndLimited() {
        for (ModelEntry m : shippedStrict().catalog().models()) {
            assertThat(m.route()).as(m.id()).isNotEmpty();
            assertThat(m.route()).as(m.id()).allSatisfy(t -> assertThat(BuiltinCatalog.PROVIDER_IDS).contains(t.providerId()));
            // OpenRouter is the fallback of every model, and always the last entry.
            assertThat(m.route().get(m.route().size() - 1).providerId()).as(m.id()).isEqualTo("openrouter");
            assertThat(m.pricing().inputPerMillion()).as(m.id()).isPositive();
            assertThat(m.pricing().outputPerMillion()).as(m.id()).isGreaterThanOrEqualTo(m.pricing().inputPerMillion());
            assertThat(m.pricing().cacheReadPerMillion()).as(m.id()).isNotNegative().isLessThanOrEqualTo(m.pricing().inputPerMillion());
            assertThat(m.maxOutputTokens()).as(m.id()).isPositive();
            assertThat((long) m.maxOutputTokens()).as(m.id()).isLessThanOrEqualTo(m.contextLength());
            assertThat(m.displayName()).as(m.id()).isPresent();
            assertThat(m.reasoning().family() != Family.NONE).as(m.id()).isEqualTo(m.capabilities().supportsReasoning());
        }
    }

    @Test
    void shippedGemini25ModelsTakeATokenBudgetForAnEffort() {
        var catalog = shippedStrict().catalog();

        for (String id : List.of("gemini-2.5-pro", "gemini-2.5-flash", "gemini-2.5-flash-lite")) {
            assertThat(catalog.resolve(id).orElseThrow().reasoning().effortAs()).as(id)
                    .contains(dev.switchboard.engine.catalog.ReasoningProfile.EffortAs.BUDGET);
        }
    }

    @Test
    void vendorModelsGoToTheVendorFirst() {
        var catalog = shippedStrict().catalog();

        assertThat(catalog.resolve("gpt-4o").orElseThrow().route()).containsExactly(
                new RouteTarget("openai", "gpt-4o"), new RouteTarget("openrouter", "openai/gpt-4o"));
        assertThat(catalog.resolve("claude-sonnet-4").orElseThrow().route()).containsExactly(
                new RouteTarget("anthropic", "claude-sonnet-4-20250514"), new RouteTarget("openrouter", "anthropic/claude-sonnet-4"));
        assertThat(catalog.resolve("gemini-2.5-pro").orElseThrow().route()).containsExactly(
                new RouteTarget("gemini", "gemini-2.5-pro"), new RouteTarget("openrouter", "google/gemini-2.5-pro"));
        assertThat(catalog.resolve("deepseek-chat").orElseThrow().route()).containsExactly(
                new RouteTarget("openrouter", "deepseek/deepseek-chat"));
    }

    @Test
    void retiredIdsResolveAsOperationsMdPromises() {
        var catalog = shippedStrict().catalog();

        assertThat(catalog.resolve("claude-3-7-sonnet-latest")).map(ModelEntry::id).contains("claude-sonnet-4");
        assertThat(catalog.resolve("claude-sonnet-4-5-20250929")).map(ModelEntry::id).contains("claude-sonnet-4-5");
        assertThat(catalog.resolve("claude-3-5-haiku-latest")).map(ModelEntry::id).contains("claude-3-5-haiku");
    }

    @Test
    void idsAndAliasesAreOneNamespaceWithoutRepeats() {
        Set<String> seen = new HashSet<>();
        for (ModelEntry m : shippedStrict().catalog().models()) {
            assertThat(seen.add(m.id())).as(m.id()).isTrue();
            m.aliases().forEach(a -> assertThat(seen.add(a)).as(a).isTrue());
        }
    }

    @Test
    void includeKeepsOnlyRoutesToConfiguredProviders() {
        GatewayConfig c = ConfigSupport.parse("""
                include: builtin-catalog
                providers:
                  anthropic: {type: anthropic, keys: [k]}
                """);

        assertThat(c.catalog().models()).extracting(ModelEntry::id).containsExactly("claude-opus-4-1", "claude-sonnet-4-5",
                "claude-sonnet-4", "claude-haiku-4-5", "claude-3-5-haiku");
        assertThat(c.catalog().models()).allSatisfy(m -> assertThat(m.route()).singleElement()
                .extracting(RouteTarget::providerId).isEqualTo("anthropic"));
    }

    @Test
    void includeThroughOpenRouterAloneServesTheWholeCatalog() {
        GatewayConfig c = ConfigSupport.parse("""
                include: [builtin-catalog]
                providers:
                  openrouter: {type: openai, base_url: https://openrouter.ai/api/v1, keys: [k]}
                """);

        assertThat(c.catalog().models()).hasSize(25)
                .allSatisfy(m -> assertThat(m.route()).singleElement().extracting(RouteTarget::providerId).isEqualTo("openrouter"));
    }

    @Test
    void theOperatorsOwnEntriesWin() {
        GatewayConfig c = ConfigSupport.parse("""
                include: builtin-catalog
                providers:
                  openai: {type: openai, keys: [k]}
                  anthropic: {type: anthropic, keys: [k]}
                models:
                  gpt-4o:                                   # same id: replaces the shipped entry
                    context_length: 1000
                    max_output_tokens: 100
                    pricing: {input: 9, output: 9}
                    route: [{provider: openai}]
                  house:
                    aliases: [gpt-4o-mini]                  # takes a shipped id: that shipped model is dropped
                    context_length: 1000
                    max_output_tokens: 100
                    pricing: {input: 1, output: 1}
                    route: [{provider: openai, model: gpt-4o-mini}]
                  my-sonnet:
                    aliases: [claude-3-7-sonnet-latest]     # takes a shipped alias: the shipped alias is dropped
                    context_length: 1000
                    max_output_tokens: 100
                    pricing: {input: 1, output: 1}
                    route: [{provider: anthropic, model: claude-sonnet-4-20250514}]
                """);

        var catalog = c.catalog();
        assertThat(catalog.resolve("gpt-4o").orElseThrow().pricing().inputPerMillion()).isEqualTo(9_000_000_000L);
        assertThat(catalog.resolve("gpt-4o-mini")).map(ModelEntry::id).contains("house");
        assertThat(catalog.resolve("claude-3-7-sonnet-latest")).map(ModelEntry::id).contains("my-sonnet");
        assertThat(catalog.resolve("claude-sonnet-4").orElseThrow().aliases()).doesNotContain("claude-3-7-sonnet-latest")
                .contains("claude-sonnet-4-20250514");
        assertThat(catalog.models()).extracting(ModelEntry::id).containsOnlyOnce("gpt-4o").doesNotContain("gpt-4o-mini")
                .contains("gpt-5", "claude-opus-4-1");
    }

    @Test
    void anIncludeThatAddsNothingIsAProblem() {
        ConfigProblem p = ConfigSupport.problem("""
                providers:
                  claude: {type: anthropic, keys: [k]}
                include: builtin-catalog
                models:
                  m1:
                    context_length: 1000
                    max_output_tokens: 100
                    pricing: {input: 1, output: 2}
                    route: [{provider: claude}]
                """);

        assertThat(p.line()).isEqualTo(3);
        assertThat(p.message()).isEqualTo("include: builtin-catalog added no model: its routes use the provider ids openai, anthropic, "
                + "gemini, openrouter and none of them is configured (name your providers so)");
    }

    @Test
    void theShippedCatalogNeedsNoEnvironment() {
        GatewayConfig c = ConfigLoader.parse("include: builtin-catalog\nproviders: {openai: {type: openai, keys: [k]}}\n", "x.yaml",
                Map.of());

        assertThat(c.catalog().models()).isNotEmpty();
    }
}
