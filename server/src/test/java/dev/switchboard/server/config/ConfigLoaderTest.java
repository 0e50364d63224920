package dev.switchboard.server.config;

import static dev.switchboard.server.config.ConfigSupport.BASE;
import static dev.switchboard.server.config.ConfigSupport.oneModel;
import static dev.switchboard.server.config.ConfigSupport.parse;
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
import dev.switchboard.engine.catalog.Timeouts;
import dev.switchboard.model.Reasoning.Effort;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {

    static final String FULL = """
            listen: 0.0.0.0:9090
            database: postgresql://gw:s3cret@db.internal:5432/switchboard
            redis: redis://:hunter2@cache:6379
            admin_key: ${SWITCHBOARD_ADMIN_KEY}

            providers:
              openai:
                type: openai
                base_url: https://api.openai.com/v1/
                keys: ["${OPENAI_API_KEY}", sk-second]
                timeouts: {connect: 500ms, first_byte: 30s, idle: 2m, total: 1h}
              claude:
                type: anthropic
                base_url: https://api.anthropic.com
                keys: ["${ANTHROPIC_API_KEY}"]
              google:
                type: gemini
                keys: ["${GEMINI_API_KEY}"]
              openrouter:
                type: openai
                base_url: https://openrouter.ai/api/v1
                keys: [sk-or]
                headers: {X-Title: Switchboard}

            models:
              claude-sonnet-4:
                display_name: Claude Sonnet 4
                owned_by: anthropic
                aliases: [claude-3-7-sonnet-latest]
                context_length: 200000
                max_output_tokens: 64000
                supports_reasoning: true
                supports_vision: true
                supports_tools: true
                supports_caching: true
                reasoning: {family: hybrid, efforts: [high, low, medium]}
                pricing: {input: 3.00, output: 15.00, cache_read: 0.30, cache_write_5m: 3.75, cache_write_1h: 6.00}
                plans: [pro]
                route:
                  - {provider: claude, model: claude-sonnet-4-20250514}
                  - {provider: openrouter, model: anthropic/claude-sonnet-4}
              gemini-2.5-flash:
                context_length: 1048576
                max_output_tokens: 65536
                pricing: {input: 0.30, output: 2.50}
                route: [{provider: google}]
            plans:
              pro: {rpm: 120}
            """;

    static final Map<String, String> ENV = Map.of("SWITCHBOARD_ADMIN_KEY", "adm-123", "OPENAI_API_KEY", "sk-first",
            "ANTHROPIC_API_KEY", "sk-ant", "GEMINI_API_KEY", "gm");

    @Test
    void bindsAFullFile() {
        GatewayConfig c = parse(FULL, ENV);

        assertThat(c.listen()).isEqualTo(new ListenAddress("0.0.0.0", 9090));
        assertThat(c.database()).isEqualTo("postgresql://gw:s3cret@db.internal:5432/switchboard");
        assertThat(c.redis()).contains(URI.create("redis://:hunter2@cache:6379"));
        assertThat(c.adminKey()).contains("adm-123");
        assertThat(c.source()).isEqualTo("switchboard.yaml");
        assertThat(c.isEmbeddedDefault()).isFalse();

        assertThat(c.catalog().providers()).extracting(ProviderConfig::id).containsExactly("openai", "claude", "google", "openrouter");
        ProviderConfig openai = c.catalog().provider("openai").orElseThrow();
        assertThat(openai.type()).isEqualTo(ProviderType.OPENAI);
        assertThat(openai.baseUrl()).isEqualTo(URI.create("https://api.openai.com/v1"));
        assertThat(openai.keys()).containsExactly("sk-first", "sk-second");
        assertThat(openai.timeouts()).isEqualTo(new Timeouts(Duration.ofMillis(500), Duration.ofSeconds(30),
                Duration.ofMinutes(2), Duration.ofHours(1)));
        assertThat(openai.headers()).isEmpty();
        ProviderConfig google = c.catalog().provider("google").orElseThrow();
        assertThat(google.baseUrl()).isEqualTo(URI.create("https://generativelanguage.googleapis.com"));
        assertThat(google.timeouts()).isEqualTo(Timeouts.DEFAULT);
        assertThat(c.catalog().provider("openrouter").orElseThrow().headers()).containsExactly(Map.entry("X-Title", "Switchboard"));

        ModelEntry sonnet = c.catalog().resolve("claude-3-7-sonnet-latest").orElseThrow();
        assertThat(sonnet).isEqualTo(new ModelEntry("claude-sonnet-4", List.of("claude-3-7-sonnet-latest"),
                Optional.of("Claude Sonnet 4"), "anthropic", 200_000, 64_000, new Capabilities(true, true, true, true, true),
                new ReasoningProfile(Family.HYBRID, List.of(Effort.LOW, Effort.MEDIUM, Effort.HIGH)),
                new Pricing(3_000_000_000L, 15_000_000_000L, 300_000_000L, 3_750_000_000L, 6_000_000_000L), List.of("pro"),
                List.of(new RouteTarget("claude", "claude-sonnet-4-20250514"),
                        new RouteTarget("openrouter", "anthropic/claude-sonnet-4"))));

        ModelEntry flash = c.catalog().resolve("gemini-2.5-flash").orElseThrow();
        assertThat(flash.displayName()).isEmpty();
        assertThat(flash.ownedBy()).isEqualTo("google");
        assertThat(flash.capabilities()).isEqualTo(Capabilities.TEXT_ONLY);
        assertThat(flash.reasoning()).isEqualTo(ReasoningProfile.NONE);
        assertThat(flash.plans()).isEmpty();
        assertThat(flash.route()).containsExactly(new RouteTarget("google", "gemini-2.5-flash"));
    }

    @Test
    void toStringHidesSecrets() {
        String s = parse(FULL, ENV).toString();

        assertThat(s).doesNotContain("s3cret", "hunter2", "adm-123", "sk-first", "sk-second", "sk-ant", "sk-or")
                .contains("postgresql://gw:***@db.internal:5432/switchboard", "redis://:***@cache:6379", "adminKey=(set)",
                        "listen=0.0.0.0:9090");
    }

    @Test
    void listenDatabaseRedisAndAdminKeyAreOptional() {
        GatewayConfig c = parse(BASE);

        assertThat(c.listen()).isEqualTo(ListenAddress.DEFAULT);
        assertThat(c.listen()).hasToString("127.0.0.1:8080");
        assertThat(c.database()).isEqualTo("sqlite:data/switchboard.db");
        assertThat(c.redis()).isEmpty();
        assertThat(c.adminKey()).isEmpty();
    }

    @Test
    void emptyOptionalValuesCountAsUnset() {
        GatewayConfig c = parse("redis: ${REDIS_URL:-}\nadmin_key: ''\n" + BASE);

        assertThat(c.redis()).isEmpty();
        assertThat(c.adminKey()).isEmpty();
    }

    @Test
    void listenAcceptsIpv6AndNames() {
        assertThat(parse("listen: '[::1]:8443'\n" + BASE).listen()).isEqualTo(new ListenAddress("::1", 8443));
        assertThat(parse("listen: localhost:0\n" + BASE).listen()).isEqualTo(new ListenAddress("localhost", 0));
        assertThat(new ListenAddress("::1", 8443)).hasToString("[::1]:8443");
    }

    @Test
    void supportsJsonFollowsSupportsToolsUnlessSet() {
        GatewayConfig c = parse(BASE.replace("context_length: 1000", "context_length: 1000\n    supports_tools: true") + """
                  m2:
                    context_length: 1000
                    max_output_tokens: 100
                    supports_tools: true
                    supports_json: false
                    pricing: {input: 1, output: 2}
                    route: [{provider: openai}]
                """);

        assertThat(c.catalog().resolve("m1").orElseThrow().capabilities().supportsJson()).isTrue();
        assertThat(c.catalog().resolve("m2").orElseThrow().capabilities().supportsJson()).isFalse();
    }

    @Test
    void reasoningDefaults() {
        GatewayConfig c = parse(BASE.replace("context_length: 1000", "context_length: 1000\n    supports_reasoning: true") + """
                  m2:
                    context_length: 1000
                    max_output_tokens: 100
                    supports_reasoning: true
                    reasoning: {family: hybrid}
                    pricing: {input: 1, output: 2}
                    route: [{provider: openai}]
                  m3:
                    context_length: 1000
                    max_output_tokens: 100
                    supports_reasoning: true
                    reasoning: {family: always, efforts: [max, minimal]}
                    pricing: {input: 1, output: 2}
                    route: [{provider: openai}]
                """);

        assertThat(c.catalog().resolve("m1").orElseThrow().reasoning())
                .isEqualTo(new ReasoningProfile(Family.ALWAYS, List.of(Effort.LOW, Effort.MEDIUM, Effort.HIGH)));
        assertThat(c.catalog().resolve("m2").orElseThrow().reasoning())
                .isEqualTo(new ReasoningProfile(Family.HYBRID, List.of(Effort.LOW, Effort.MEDIUM, Effort.HIGH)));
        assertThat(c.catalog().resolve("m3").orElseThrow().reasoning())
                .isEqualTo(new ReasoningProfile(Family.ALWAYS, List.of(Effort.MINIMAL, Effort.MAX)));
    }

    @Test
    void simulatorNeedsNoBaseUrlOrKeys() {
        ProviderConfig sim = parse(BASE).catalog().provider("simulator").orElseThrow();

        assertThat(sim.type()).isEqualTo(ProviderType.SIMULATOR);
        assertThat(sim.keys()).isEmpty();
        assertThat(sim.baseUrl()).isEqualTo(ProviderBinder.SIMULATOR_URL);
    }

    @Test
    void anchorsMergeKeysAndExtensionKeysWork() {
        GatewayConfig c = parse("""
                x-common: &common {connect: 1s, total: 2m}
                providers:
                  openai:
                    type: openai
                    keys: [k]
                    timeouts:
                      <<: *common
                      total: 5m
                """ + oneModel("openai"));

        assertThat(c.catalog().provider("openai").orElseThrow().timeouts()).isEqualTo(new Timeouts(Duration.ofSeconds(1),
                Duration.ofSeconds(60), Duration.ofSeconds(60), Duration.ofMinutes(5)));
    }

    @Test
    void loadsFromAFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("switchboard.yaml");
        Files.writeString(file, BASE, StandardCharsets.UTF_8);

        GatewayConfig c = ConfigLoader.load(file, Map.of());

        assertThat(c.source()).isEqualTo(file.toString());
        assertThat(c.catalog().models()).extracting(ModelEntry::id).containsExactly("m1");
    }

    @Test
    void aMissingFileIsAProblemNamingIt(@TempDir Path dir) {
        Path file = dir.resolve("nope.yaml");

        assertThatThrownBy(() -> ConfigLoader.load(file, Map.of())).isInstanceOf(ConfigException.class)
                .hasMessage(file + ": config file not found (check the path given with --config or SWITCHBOARD_CONFIG)");
    }

    @Test
    void aFileThatIsNotUtf8IsAProblem(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("latin1.yaml");
        Files.write(file, new byte[] {'a', ':', ' ', (byte) 0xE9, '\n'});

        assertThatThrownBy(() -> ConfigLoader.load(file, Map.of())).isInstanceOf(ConfigException.class)
                .hasMessageContaining("not UTF-8");
    }
}
