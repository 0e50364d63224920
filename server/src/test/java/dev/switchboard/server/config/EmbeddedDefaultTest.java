package dev.switchboard.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.engine.catalog.Capabilities;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.Pricing;
import dev.switchboard.engine.catalog.ProviderConfig;
import dev.switchboard.engine.catalog.ProviderType;
import dev.switchboard.engine.catalog.ReasoningProfile;
import dev.switchboard.engine.catalog.ReasoningProfile.Family;
import dev.switchboard.engine.catalog.RouteTarget;
import dev.switchboard.model.Reasoning.Effort;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EmbeddedDefaultTest {

    @Test
    void withoutKeysItIsTheOfflineDemo() {
        GatewayConfig c = ConfigLoader.embeddedDefault(Map.of());

        assertThat(c.source()).isEqualTo("embedded default");
        assertThat(c.isEmbeddedDefault()).isTrue();
        assertThat(c.listen()).isEqualTo(new ListenAddress("127.0.0.1", 8080));
        assertThat(c.database()).isEqualTo("sqlite:data/switchboard.db");
        assertThat(c.redis()).isEmpty();
        assertThat(c.adminKey()).isEmpty();
        assertThat(c.catalog().providers()).extracting(ProviderConfig::id).containsExactly("simulator");
        assertThat(c.catalog().provider("simulator").orElseThrow().type()).isEqualTo(ProviderType.SIMULATOR);
        assertThat(c.catalog().models()).extracting(ModelEntry::id).containsExactly("switchboard-demo");
    }

    @Test
    void theDemoModel() {
        ModelEntry demo = ConfigLoader.embeddedDefault(Map.of()).catalog().resolve("demo").orElseThrow();

        assertThat(demo.id()).isEqualTo("switchboard-demo");
        assertThat(demo.aliases()).containsExactly("demo");
        assertThat(demo.contextLength()).isEqualTo(32_768);
        assertThat(demo.maxOutputTokens()).isEqualTo(4_096);
        assertThat(demo.capabilities()).isEqualTo(new Capabilities(true, true, true, false, true));
        assertThat(demo.reasoning()).isEqualTo(new ReasoningProfile(Family.HYBRID, List.of(Effort.LOW, Effort.MEDIUM, Effort.HIGH)));
        assertThat(demo.pricing()).isEqualTo(Pricing.FREE);
        assertThat(demo.plans()).isEmpty();
        assertThat(demo.ownedBy()).isEqualTo("switchboard");
        assertThat(demo.route()).containsExactly(new RouteTarget("simulator", "switchboard-demo"));
    }

    @ParameterizedTest
    @CsvSource({
            "OPENAI_API_KEY, openai, https://api.openai.com/v1, openai, gpt-4o",
            "ANTHROPIC_API_KEY, anthropic, https://api.anthropic.com, anthropic, claude-opus-5-5",
            "GEMINI_API_KEY, gemini, https://generativelanguage.googleapis.com, gemini, gemini-2.5-flash",
            "OPENROUTER_API_KEY, openrouter, https://openrouter.ai/api/v1, openai, deepseek-v4-pro",
    })
    void eachKeyEnablesItsProviderAndTheModelsItReaches(String variable, String id, String baseUrl, String type, String model) {
        GatewayConfig c = ConfigLoader.embeddedDefault(Map.of(variable, "secret-" + id));

        // One OpenAI key serves both of OpenAI's APIs: chat completions and the Responses API.
        List<String> enabled = id.equals("openai") ? List.of("simulator", "openai", "openai-responses") : List.of("simulator", id);
        assertThat(c.catalog().providers()).extracting(ProviderConfig::id).containsExactlyElementsOf(enabled);
        ProviderConfig p = c.catalog().provider(id).orElseThrow();
        assertThat(p.type()).isEqualTo(ProviderType.parse(type).orElseThrow());
        assertThat(p.baseUrl()).isEqualTo(URI.create(baseUrl));
        assertThat(p.keys()).containsExactly("secret-" + id);
        assertThat(c.catalog().resolve(model)).isPresent();
        assertThat(c.catalog().resolve("switchboard-demo")).isPresent();
        // Routes to disabled providers are gone.
        assertThat(c.catalog().models()).allSatisfy(m -> assertThat(m.route())
                .allSatisfy(t -> assertThat(t.providerId()).isIn(enabled)));
    }

    @Test
    void onlyAnthropicServesOnlyClaude() {
        GatewayConfig c = ConfigLoader.embeddedDefault(Map.of("ANTHROPIC_API_KEY", "k"));

        assertThat(c.catalog().models()).extracting(ModelEntry::id).startsWith("switchboard-demo", "claude-opus-5-5")
                .allMatch(id -> id.equals("switchboard-demo") || id.startsWith("claude-"));
        assertThat(c.catalog().resolve("claude-sonnet-4-5").orElseThrow().route())
                .containsExactly(new RouteTarget("anthropic", "claude-sonnet-4-5-20250929"));
    }

    @Test
    void allKeysEnableEveryProviderAndFallbackToOpenRouter() {
        GatewayConfig c = ConfigLoader.embeddedDefault(ConfigSupport.ALL_KEYS);

        assertThat(c.catalog().providers()).extracting(ProviderConfig::id)
                .containsExactly("simulator", "openai", "openai-responses", "anthropic", "gemini", "openrouter");
        assertThat(c.catalog().models()).hasSizeGreaterThanOrEqualTo(101);
        assertThat(c.catalog().resolve("gpt-5").orElseThrow().route()).extracting(RouteTarget::providerId)
                .containsExactly("openai", "openrouter");
        assertThat(c.catalog().resolve("gpt-5.5-pro").orElseThrow().route()).extracting(RouteTarget::providerId)
                .containsExactly("openai-responses", "openrouter");
        assertThat(c.catalog().provider("openai-responses").orElseThrow().type()).isEqualTo(ProviderType.OPENAI_RESPONSES);
        assertThat(c.toString()).doesNotContain("sk-test-openai", "sk-ant-test", "gm-test", "sk-or-test");
    }

    @Test
    void blankKeysDoNotEnableAProvider() {
        GatewayConfig c = ConfigLoader.embeddedDefault(Map.of("OPENAI_API_KEY", "   ", "GEMINI_API_KEY", ""));

        assertThat(c.catalog().providers()).extracting(ProviderConfig::id).containsExactly("simulator");
    }

    @Test
    void switchboardVariablesOverrideTheDefaults() {
        Map<String, String> env = new HashMap<>();
        env.put("SWITCHBOARD_LISTEN", "0.0.0.0:9999");
        env.put("SWITCHBOARD_DATABASE", "postgresql://sb:pw@db:5432/sb");
        env.put("SWITCHBOARD_ADMIN_KEY", "admin-secret");
        env.put("SWITCHBOARD_REDIS", "redis://cache:6379");

        GatewayConfig c = ConfigLoader.embeddedDefault(env);

        assertThat(c.listen()).isEqualTo(new ListenAddress("0.0.0.0", 9999));
        assertThat(c.database()).isEqualTo("postgresql://sb:pw@db:5432/sb");
        assertThat(c.adminKey()).isEqualTo(Optional.of("admin-secret"));
        assertThat(c.redis()).contains(URI.create("redis://cache:6379"));
        assertThat(c.toString()).doesNotContain("admin-secret", ":pw@");
    }

    @Test
    void aBadOverrideIsReportedNamingTheVariable() {
        assertThatThrownBy(() -> ConfigLoader.embeddedDefault(Map.of("SWITCHBOARD_LISTEN", "8080", "SWITCHBOARD_REDIS", "localhost")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'listen' must be host:port, got '8080'")
                .hasMessageContaining("[the value comes from ${SWITCHBOARD_LISTEN}]")
                .hasMessageContaining("[the value comes from ${SWITCHBOARD_REDIS}]");
    }
}
