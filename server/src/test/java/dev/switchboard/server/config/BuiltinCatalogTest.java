package dev.switchboard.server.config;

import static dev.switchboard.server.config.ConfigSupport.oneModel;
import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.engine.catalog.AllowedParams;
import dev.switchboard.engine.catalog.Catalog;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.ReasoningProfile.EffortAs;
import dev.switchboard.engine.catalog.ReasoningProfile.Family;
import dev.switchboard.engine.catalog.ResponsesRequirement;
import dev.switchboard.engine.catalog.RouteTarget;
import dev.switchboard.engine.catalog.ThinkingBudget;
import dev.switchboard.model.Reasoning.Effort;
import dev.switchboard.server.config.YamlNode.Entry;
import dev.switchboard.server.config.YamlNode.Mapping;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class BuiltinCatalogTest {

    private static final String ALL_PROVIDERS = """
            providers:
              openai: {type: openai, keys: [k]}
              openai-responses: {type: openai-responses, keys: [k]}
              anthropic: {type: anthropic, keys: [k]}
              gemini: {type: gemini, keys: [k]}
              openrouter: {type: openai, base_url: https://openrouter.ai/api/v1, keys: [k]}
            """;

    /** Every key a shipped model must state itself, rather than leave to a default. */
    private static final List<String> STATED = List.of("display_name", "owned_by", "context_length", "max_output_tokens",
            "supports_reasoning", "supports_vision", "supports_tools", "supports_caching", "supports_json", "reasoning", "pricing",
            "source", "route");

    /** The shipped file bound strictly, as if an operator had written it with all four providers. */
    private static GatewayConfig shippedStrict() {
        return ConfigSupport.parse(ALL_PROVIDERS + BuiltinCatalog.Resources.text(BuiltinCatalog.RESOURCE));
    }

    private static Catalog catalog() {
        return shippedStrict().catalog();
    }

    @Test
    void theShippedCatalogValidatesStrictlyAndHoldsOverAHundredModelsOfEveryVendor() {
        List<ModelEntry> models = catalog().models();

        assertThat(models).hasSizeGreaterThanOrEqualTo(100);
        Map<String, Long> byOwner = models.stream().collect(Collectors.groupingBy(ModelEntry::ownedBy, Collectors.counting()));
        assertThat(byOwner.get("openai")).isGreaterThanOrEqualTo(30);
        assertThat(byOwner.get("anthropic")).isGreaterThanOrEqualTo(12);
        assertThat(byOwner.get("google")).isGreaterThanOrEqualTo(12);
        assertThat(byOwner).containsKeys("meta", "mistralai", "deepseek", "qwen", "xai", "moonshotai", "z-ai");
    }

    @Test
    void everyShippedModelStatesItsFlagsLimitsPricesAndDatedSource() {
        List<String> problems = new ArrayList<>();
        for (Entry e : BuiltinCatalog.modelEntries(new EnvExpander(Map.of()), new Problems())) {
            Mapping m = (Mapping) e.value();
            for (String key : STATED) {
                if (m.get(key).isEmpty()) {
                    problems.add(e.key() + " does not state " + key);
                }
            }
            m.get("pricing").map(p -> (Mapping) p.value()).ifPresent(p -> {
                for (String price : ModelBinder.PRICING_KEYS) {
                    if (p.get(price).isEmpty()) {
                        problems.add(e.key() + " does not state pricing." + price);
                    }
                }
            });
            m.get("reasoning").map(r -> (Mapping) r.value()).ifPresent(r -> {
                if (r.get("family").isEmpty()) {
                    problems.add(e.key() + " does not state reasoning.family");
                }
            });
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void everyShippedModelIsRoutedPricedLimitedAndSourced() {
        for (ModelEntry m : catalog().models()) {
            assertThat(m.route()).as(m.id()).isNotEmpty();
            assertThat(m.route()).as(m.id()).allSatisfy(t -> assertThat(BuiltinCatalog.PROVIDER_IDS).contains(t.providerId()));
            // OpenRouter is the fallback of every model, and always the last entry.
            assertThat(m.route().get(m.route().size() - 1).providerId()).as(m.id()).isEqualTo("openrouter");
            assertThat(m.pricing().inputPerMillion()).as(m.id()).isPositive();
            assertThat(m.pricing().outputPerMillion()).as(m.id()).isGreaterThanOrEqualTo(m.pricing().inputPerMillion());
            assertThat(m.pricing().cacheReadPerMillion()).as(m.id()).isPositive().isLessThanOrEqualTo(m.pricing().inputPerMillion());
            assertThat(m.pricing().cacheWrite5mPerMillion()).as(m.id()).isGreaterThanOrEqualTo(m.pricing().inputPerMillion());
            assertThat(m.pricing().cacheWrite1hPerMillion()).as(m.id()).isGreaterThanOrEqualTo(m.pricing().cacheWrite5mPerMillion());
            assertThat(m.maxOutputTokens()).as(m.id()).isPositive();
            assertThat((long) m.maxOutputTokens()).as(m.id()).isLessThanOrEqualTo(m.contextLength());
            assertThat(m.displayName()).as(m.id()).isPresent();
            assertThat(m.reasoning().family() != Family.NONE).as(m.id()).isEqualTo(m.capabilities().supportsReasoning());
            if (m.capabilities().supportsReasoning()) {
                assertThat(m.reasoning().efforts()).as(m.id()).isNotEmpty();
            }
            assertThat(m.source()).as(m.id()).hasValueSatisfying(s -> {
                assertThat(s.url()).startsWith("https://");
                assertThat(s.asOf()).isAfterOrEqualTo(LocalDate.of(2026, 7, 1)).isBeforeOrEqualTo(LocalDate.now());
            });
        }
    }

    @Test
    void theCodingAgentsDefaultModelsAreShippedAndGoToTheirVendorFirst() {
        Catalog catalog = catalog();

        // Claude Code 2.1.328: opus (its default), sonnet, haiku (background and small fast calls).
        for (String id : List.of("claude-opus-5-5", "claude-sonnet-5-5", "claude-haiku-5-5")) {
            assertThat(catalog.resolve(id).orElseThrow().route().getFirst()).as(id).isEqualTo(new RouteTarget("anthropic", id));
        }
        // Codex 0.169.0: its default (through OpenAI's Responses API, Codex's own), and the model it reviews approvals with.
        assertThat(catalog.resolve("gpt-6.1-sol").orElseThrow().route().getFirst())
                .isEqualTo(new RouteTarget("openai-responses", "gpt-6.1-sol"));
        assertThat(catalog.resolve("gpt-6.1-sol-2026-09-29")).map(ModelEntry::id).contains("gpt-6.1-sol");
        assertThat(catalog.resolve("gpt-5.6-luna")).isPresent();
        // Gemini CLI 0.61.0: its pro and flash-lite defaults, and the flash models it falls back to.
        for (String id : List.of("gemini-3.1-pro-preview", "gemini-3.5-flash-lite", "gemini-3.5-flash", "gemini-3.8-flash",
                "gemini-3-flash-preview", "gemini-3.1-pro-preview-customtools")) {
            assertThat(catalog.resolve(id).orElseThrow().route().getFirst()).as(id).isEqualTo(new RouteTarget("gemini", id));
        }
        assertThat(catalog.resolve("gemini-3.1-flash-lite-preview")).map(ModelEntry::id).contains("gemini-3.1-flash-lite");
    }

    @Test
    void retiredIdsResolveToTheirHybridReplacements() {
        Catalog catalog = catalog();

        Map<String, String> retired = Map.of("claude-3-7-sonnet-latest", "claude-sonnet-5", "claude-sonnet-4-20250514", "claude-sonnet-5",
                "claude-3-5-haiku-latest", "claude-haiku-4-5", "claude-opus-4-1", "claude-opus-5", "claude-3-opus-latest", "claude-opus-5",
                "gemini-2.0-flash", "gemini-2.5-flash", "gemini-2.0-flash-lite", "gemini-2.5-flash-lite", "gemini-3-pro-preview",
                "gemini-3.1-pro-preview", "grok-4", "grok-4.3", "o1-preview", "o3");
        retired.forEach((old, now) -> assertThat(catalog.resolve(old)).as(old).map(ModelEntry::id).contains(now));
        // A retired model that could switch thinking off is replaced by one that still can.
        for (String old : List.of("claude-3-7-sonnet-latest", "claude-3-5-haiku-latest", "claude-opus-4-1", "gemini-2.0-flash")) {
            assertThat(catalog.resolve(old).orElseThrow().reasoning().family()).as(old).isEqualTo(Family.HYBRID);
        }
    }

    @Test
    void translationFactsPerModel() {
        Catalog catalog = catalog();

        assertThat(catalog.resolve("gemini-2.5-flash").orElseThrow().reasoning().budget())
                .contains(new ThinkingBudget.Range(1, 24576, false));
        assertThat(catalog.resolve("gemini-2.5-flash-lite").orElseThrow().reasoning().budget())
                .contains(new ThinkingBudget.Range(512, 24576, false));
        assertThat(catalog.resolve("gemini-2.5-pro").orElseThrow().reasoning().budget())
                .contains(new ThinkingBudget.Range(128, 32768, false));
        assertThat(catalog.resolve("claude-haiku-4-5").orElseThrow().reasoning().budget())
                .contains(new ThinkingBudget.Range(1024, 63999, true));
        assertThat(catalog.resolve("claude-opus-5-5").orElseThrow().reasoning().budget()).contains(new ThinkingBudget.Refused());
        assertThat(catalog.resolve("o3").orElseThrow().reasoning().budget()).contains(new ThinkingBudget.Refused());

        assertThat(catalog.resolve("o3").orElseThrow().refusedParams()).contains("temperature", "top_p", "logprobs");
        assertThat(catalog.resolve("claude-opus-4-7").orElseThrow().refusedParams()).containsExactlyInAnyOrder("temperature", "top_p", "top_k");
        assertThat(catalog.resolve("claude-opus-4-6").orElseThrow().refusedParams()).isEmpty();
        assertThat(catalog.resolve("gpt-4.1").orElseThrow().refusedParams()).isEmpty();
        assertThat(AllowedParams.of(catalog.resolve("o3").orElseThrow(), catalog)).doesNotContain("temperature", "top_p")
                .contains("reasoning_effort", "seed");

        assertThat(catalog.resolve("gpt-5.5-pro").orElseThrow().responsesApi()).isEqualTo(ResponsesRequirement.ONLY);
        assertThat(catalog.resolve("o3-deep-research").orElseThrow().responsesApi()).isEqualTo(ResponsesRequirement.ONLY);
        assertThat(catalog.resolve("gpt-6.1-sol").orElseThrow().responsesApi()).isEqualTo(ResponsesRequirement.FOR_REASONING_TOOLS);
        assertThat(catalog.resolve("gpt-4.1").orElseThrow().responsesApi()).isEqualTo(ResponsesRequirement.NOT_NEEDED);
        // The openai provider type speaks chat completions, which refuses these models (or their reasoning tool calls):
        // they go to OpenAI's Responses API first; a Responses-only model is never routed to chat completions at OpenAI.
        assertThat(catalog.models()).filteredOn(m -> m.responsesApi() == ResponsesRequirement.ONLY).hasSizeGreaterThanOrEqualTo(5)
                .allSatisfy(m -> assertThat(m.route()).extracting(RouteTarget::providerId)
                        .containsExactly("openai-responses", "openrouter"));
        assertThat(catalog.models()).filteredOn(m -> m.responsesApi() == ResponsesRequirement.FOR_REASONING_TOOLS)
                .hasSizeGreaterThanOrEqualTo(5).allSatisfy(m -> assertThat(m.route()).extracting(RouteTarget::providerId)
                        .containsExactly("openai-responses", "openai", "openrouter"));
        assertThat(catalog.models()).filteredOn(m -> m.responsesApi() == ResponsesRequirement.NOT_NEEDED)
                .allSatisfy(m -> assertThat(m.route()).extracting(RouteTarget::providerId).doesNotContain("openai-responses"));

        // OpenAI takes effort none as its off switch; the always-reasoning family sends it when thinking is turned off.
        assertThat(catalog.resolve("gpt-6-sol").orElseThrow().reasoning().efforts()).startsWith(Effort.NONE);
        assertThat(catalog.resolve("gpt-6.1-sol").orElseThrow().reasoning().efforts()).doesNotContain(Effort.NONE, Effort.MAX);
    }

    @Test
    void shippedGemini25ModelsTakeATokenBudgetForAnEffortAndGemini3ALevel() {
        Catalog catalog = catalog();

        for (String id : List.of("gemini-2.5-pro", "gemini-2.5-flash", "gemini-2.5-flash-lite")) {
            assertThat(catalog.resolve(id).orElseThrow().reasoning().effortAs()).as(id).contains(EffortAs.BUDGET);
        }
        for (String id : List.of("gemini-3.1-pro-preview", "gemini-3.5-flash-lite", "gemini-3.8-flash")) {
            assertThat(catalog.resolve(id).orElseThrow().reasoning().effortAs()).as(id).contains(EffortAs.LEVEL);
        }
    }

    @Test
    void vendorModelsGoToTheVendorFirst() {
        Catalog catalog = catalog();

        assertThat(catalog.resolve("gpt-4o").orElseThrow().route()).containsExactly(
                new RouteTarget("openai", "gpt-4o"), new RouteTarget("openrouter", "openai/gpt-4o"));
        assertThat(catalog.resolve("claude-sonnet-4-5").orElseThrow().route()).containsExactly(
                new RouteTarget("anthropic", "claude-sonnet-4-5-20250929"), new RouteTarget("openrouter", "anthropic/claude-sonnet-4.5"));
        assertThat(catalog.resolve("gemini-2.5-pro").orElseThrow().route()).containsExactly(
                new RouteTarget("gemini", "gemini-2.5-pro"), new RouteTarget("openrouter", "google/gemini-2.5-pro"));
        assertThat(catalog.resolve("deepseek-v4-pro").orElseThrow().route()).containsExactly(
                new RouteTarget("openrouter", "deepseek/deepseek-v4-pro"));
    }

    @Test
    void idsAndAliasesAreOneNamespaceWithoutRepeats() {
        Set<String> seen = new HashSet<>();
        for (ModelEntry m : catalog().models()) {
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

        assertThat(c.catalog().models()).extracting(ModelEntry::id).containsExactly("claude-opus-5-5", "claude-opus-5",
                "claude-opus-4-8", "claude-opus-4-7", "claude-opus-4-6", "claude-opus-4-5", "claude-sonnet-5-5", "claude-sonnet-5",
                "claude-sonnet-4-6", "claude-sonnet-4-5", "claude-haiku-5-5", "claude-haiku-4-5", "claude-fable-5-2", "claude-fable-5-1",
                "claude-fable-5");
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

        assertThat(c.catalog().models()).hasSize(catalog().models().size())
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
                    route: [{provider: anthropic, model: claude-sonnet-4-6}]
                """);

        var catalog = c.catalog();
        assertThat(catalog.resolve("gpt-4o").orElseThrow().pricing().inputPerMillion()).isEqualTo(9_000_000_000L);
        assertThat(catalog.resolve("gpt-4o").orElseThrow().source()).isEmpty();
        assertThat(catalog.resolve("gpt-4o-mini")).map(ModelEntry::id).contains("house");
        assertThat(catalog.resolve("claude-3-7-sonnet-latest")).map(ModelEntry::id).contains("my-sonnet");
        assertThat(catalog.resolve("claude-sonnet-5").orElseThrow().aliases()).doesNotContain("claude-3-7-sonnet-latest")
                .contains("claude-3-5-sonnet-latest");
        assertThat(catalog.models()).extracting(ModelEntry::id).containsOnlyOnce("gpt-4o").doesNotContain("gpt-4o-mini")
                .contains("gpt-5", "claude-opus-5-5");
    }

    @Test
    void anIncludeThatAddsNothingIsAProblem() {
        ConfigProblem p = ConfigSupport.problem("""
                providers:
                  claude: {type: anthropic, keys: [k]}
                include: builtin-catalog
                """ + oneModel("claude"));

        assertThat(p.line()).isEqualTo(3);
        assertThat(p.message()).isEqualTo("include: builtin-catalog added no model: its routes use the provider ids openai, "
                + "openai-responses, anthropic, gemini, openrouter and none of them is configured (name your providers so)");
    }

    @Test
    void theShippedCatalogNeedsNoEnvironment() {
        GatewayConfig c = ConfigLoader.parse("include: builtin-catalog\nproviders: {openai: {type: openai, keys: [k]}}\n", "x.yaml",
                Map.of());

        assertThat(c.catalog().models()).isNotEmpty();
    }
}
