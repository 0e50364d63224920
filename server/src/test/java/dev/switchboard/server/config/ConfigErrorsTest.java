package dev.switchboard.server.config;

import static dev.switchboard.server.config.ConfigSupport.BASE;
import static dev.switchboard.server.config.ConfigSupport.oneModel;
import static dev.switchboard.server.config.ConfigSupport.problem;
import static dev.switchboard.server.config.ConfigSupport.problems;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every class of config error: the exact line, and a message that says what was expected. */
class ConfigErrorsTest {

    /** BASE with a model m2 whose body is {@code body} (indented by the caller with 4 spaces); m2 starts at line 13. */
    private static String withModel(String body) {
        return BASE + "  m2:\n" + body;
    }

    private static final String M2_OK = """
                context_length: 1000
                max_output_tokens: 100
                pricing: {input: 1, output: 2}
                route: [{provider: openai}]
            """;

    /** The table of configs with one error each ({@code config/one-error-configs.yaml}). */
    static Stream<Arguments> oneErrorConfigs() throws IOException {
        try (InputStream in = ConfigErrorsTest.class.getResourceAsStream("/config/one-error-configs.yaml")) {
            JsonNode table = new YAMLMapper().readTree(in);
            return StreamSupport.stream(table.spliterator(), false).map(row -> Arguments.of(row.path("case").asText(), row));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("oneErrorConfigs")
    void theOneErrorIsPlacedAndSaysWhatWasExpected(String name, JsonNode row) {
        ConfigProblem p = problem(row.path("config").asText());

        assertThat(p.line()).isEqualTo(row.path("line").asInt());
        if (row.has("column")) {
            assertThat(p.column()).isEqualTo(row.path("column").asInt());
        }
        if (row.has("message")) {
            assertThat(p.message()).isEqualTo(row.path("message").asText());
        }
        if (row.has("starts_with")) {
            assertThat(p.message()).startsWith(row.path("starts_with").asText());
        }
        if (row.has("ends_with")) {
            assertThat(p.message()).endsWith(row.path("ends_with").asText());
        }
        row.path("contains").forEach(fragment -> assertThat(p.message()).contains(fragment.asText()));
        assertThat(row.has("message") || row.has("starts_with") || row.has("contains")).as("the row says what the message is").isTrue();
    }

    @Test
    void theSampleFromTheBriefRendersAsPromised() {
        ConfigProblem p = problem("""
                providers:
                  openai:
                    type: openai
                    base_ur: https://api.openai.com/v1
                    keys: [k]
                """ + oneModel("openai"));

        assertThat(p.render()).isEqualTo("switchboard.yaml:4:5: unknown key 'base_ur' in provider 'openai' (expected one of: "
                + "type, base_url, keys, timeouts, headers, streaming, flavour, breaker; did you mean 'base_url'?)");
        assertThat(p.line()).isEqualTo(4);
        assertThat(p.column()).isEqualTo(5);
    }

    @Test
    void unknownKeysAnywhere() {
        List<ConfigProblem> ps = problems("""
                lisen: 127.0.0.1:8080
                providers:
                  openai:
                    type: openai
                    keys: [k]
                    timeouts: {conect: 5s}
                models:
                  m1:
                    context_lenght: 1000
                    max_output_tokens: 100
                    reasoning: {familly: none}
                    pricing: {input: 1, output: 2, cache_reads: 1}
                    route: [{provider: openai, modle: x}]
                """);

        assertThat(ps).extracting(ConfigProblem::line).containsExactly(1, 6, 8, 9, 11, 11, 12, 13);
        assertThat(ps.get(0).message()).isEqualTo("unknown key 'lisen' at the top level (expected one of: listen, database, redis, "
                + "admin_key, http, cors, metrics, include, providers, models, dashboard, extend, plans, billing, limits, tracing; did you mean 'listen'?)");
        assertThat(ps.get(1).message()).contains("unknown key 'conect' in timeouts of provider 'openai'", "did you mean 'connect'?");
        // line 8: the model, now without context_length; line 9: the misspelt key
        assertThat(ps.get(2).message()).isEqualTo("model 'm1' has no 'context_length' (add context_length: N, the context window in tokens)");
        assertThat(ps.get(3).message()).contains("unknown key 'context_lenght' in model 'm1'", "did you mean 'context_length'?");
        // line 11 twice: the misspelt key, and so the family it should have given
        assertThat(ps.get(4).message()).isEqualTo("reasoning of model 'm1' has no 'family' (add family: hybrid, always or none)");
        assertThat(ps.get(5).message()).contains("unknown key 'familly' in reasoning of model 'm1'", "did you mean 'family'?");
        assertThat(ps.get(6).message()).contains("unknown key 'cache_reads' in pricing of model 'm1'", "did you mean 'cache_read'?");
        assertThat(ps.get(7).message()).contains("unknown key 'modle' in route entry 1 of model 'm1'", "did you mean 'model'?");
    }

    @Test
    void wrongTypes() {
        List<ConfigProblem> ps = problems("""
                providers:
                  openai:
                    type: openai
                    keys: sk-just-one
                models:
                  m1:
                    context_length: lots
                    max_output_tokens: 100
                    supports_tools: yes
                    aliases: {a: b}
                    pricing: [1, 2]
                    route: [{provider: openai}]
                  m2: just-a-string
                """);

        assertThat(ps).extracting(ConfigProblem::line).containsExactly(4, 7, 9, 10, 11, 13);
        assertThat(ps.get(0).message()).isEqualTo("'keys' of provider 'openai' must be a list, got a single value "
                + "(e.g. keys: [\"${OPENAI_API_KEY}\"])");
        assertThat(ps.get(1).message()).isEqualTo("'context_length' of model 'm1' must be a whole number from 1 to 2147483647, "
                + "got 'lots' (e.g. context_length: 128000)");
        assertThat(ps.get(2).message()).isEqualTo("'supports_tools' of model 'm1' must be true or false, got 'yes'");
        assertThat(ps.get(3).message()).startsWith("'aliases' of model 'm1' must be a list, got a map");
        assertThat(ps.get(4).message()).startsWith("pricing of model 'm1' must be a map of settings, got a list");
        assertThat(ConfigSupport.problem("providers: [openai]\n").message()).startsWith("'providers' must be a map of settings, got a list");
        assertThat(ps.get(5).message()).startsWith("model 'm2' must be a map of settings, got a single value");
    }

    @Test
    void badDurations() {
        List<ConfigProblem> ps = problems(BASE.replace("keys: [sk-1]", """
                keys: [sk-1]
                    timeouts:
                      connect: 5
                      first_byte: 1.5s
                      idle: 0s
                      total: 10 minutes"""));

        assertThat(ps).extracting(ConfigProblem::line).containsExactly(6, 7, 8, 9);
        assertThat(ps.get(0).message()).isEqualTo("'connect' of timeouts of provider 'openai' is not a duration: '5' (expected a "
                + "positive whole number with a unit ms, s, m or h, e.g. 500ms, 5s, 10m, 1h)");
        assertThat(ps).allSatisfy(p -> assertThat(p.message()).contains("is not a duration"));
    }

    @Test
    void listenNotHostPort() {
        List<ConfigProblem> ps = problems("listen: 8080\n" + BASE);
        assertThat(ps).singleElement().satisfies(p -> {
            assertThat(p.line()).isEqualTo(1);
            assertThat(p.column()).isEqualTo(9);
            assertThat(p.message()).isEqualTo("'listen' must be host:port, got '8080' (e.g. 127.0.0.1:8080 for this machine only, "
                    + "0.0.0.0:8080 for every interface, [::1]:8080 for IPv6)");
        });
        assertThat(problem(":8080\n".replace(":8080", "listen: ':8080'") + "\n" + BASE).line()).isEqualTo(1);
        assertThat(problem("listen: localhost:99999\n" + BASE).line()).isEqualTo(1);
        assertThat(problem("listen: http://localhost:8080\n" + BASE).line()).isEqualTo(1);
    }

    @Test
    void effortAsBindsAndIsOptional() {
        GatewayConfig c = ConfigSupport.parse(withModel("    supports_reasoning: true\n    reasoning: {family: always, effort_as: BUDGET}\n"
                + M2_OK));

        assertThat(c.catalog().resolve("m2").orElseThrow().reasoning().effortAs())
                .contains(dev.switchboard.engine.catalog.ReasoningProfile.EffortAs.BUDGET);
        assertThat(c.catalog().resolve("m1").orElseThrow().reasoning().effortAs()).isEmpty();
    }

    @Test
    void catalogFactsBind() {
        GatewayConfig c = ConfigSupport.parse(withModel("""
                    supports_reasoning: true
                    reasoning: {family: hybrid, budget: {min: 100, max: 800, below_max_tokens: true}}
                    refused_params: [temperature, top_p]
                    responses_api: for_reasoning_tools
                    source: {url: https://example.com/prices, as_of: 2026-11-01, note: " promo "}
                """ + M2_OK));

        var m2 = c.catalog().resolve("m2").orElseThrow();
        assertThat(m2.reasoning().budget()).contains(new dev.switchboard.engine.catalog.ThinkingBudget.Range(100, 800, true));
        assertThat(m2.refusedParams()).containsExactlyInAnyOrder("temperature", "top_p");
        assertThat(m2.responsesApi()).isEqualTo(dev.switchboard.engine.catalog.ResponsesRequirement.FOR_REASONING_TOOLS);
        assertThat(m2.source()).contains(new dev.switchboard.engine.catalog.CatalogSource("https://example.com/prices",
                java.time.LocalDate.of(2026, 11, 1), java.util.Optional.of("promo")));
        var m1 = c.catalog().resolve("m1").orElseThrow();
        assertThat(m1.refusedParams()).isEmpty();
        assertThat(m1.responsesApi()).isEqualTo(dev.switchboard.engine.catalog.ResponsesRequirement.NOT_NEEDED);
        assertThat(m1.source()).isEmpty();
        assertThat(m1.reasoning().budget()).isEmpty();
    }

    @Test
    void catalogFactsAreValidatedWithTheirLine() {
        List<ConfigProblem> ps = problems(withModel("""
                    supports_reasoning: true
                    reasoning: {family: always, budget: {min: 900, max: 500}}
                    refused_params: [temperature, temprature, temperature]
                    responses_api: responses_only
                    source: {url: example.com/prices, as_of: 1 Nov 2026}
                """ + M2_OK));

        assertThat(ps).extracting(ConfigProblem::line).containsExactly(15, 16, 16, 17, 18, 18);
        assertThat(ps.get(0).message()).isEqualTo("'max' of budget of reasoning of model 'm2' (500) is smaller than its min (900)");
        assertThat(ps.get(1).message()).startsWith("'temprature' in 'refused_params' of model 'm2' is not a sampling parameter a model "
                + "can refuse (expected some of: frequency_penalty, logit_bias, ").endsWith("did you mean 'temperature'?)");
        assertThat(ps.get(2).message()).isEqualTo("'temperature' is listed twice in 'refused_params' of model 'm2' (remove one)");
        assertThat(ps.get(3).message()).startsWith("unknown responses_api 'responses_only' in model 'm2' (expected only");
        assertThat(ps.get(4).message()).isEqualTo("'url' of source of model 'm2' must be an http:// or https:// address of the "
                + "published source, got 'example.com/prices'");
        assertThat(ps.get(5).message()).isEqualTo("'as_of' of source of model 'm2' must be a date written YYYY-MM-DD, got '1 Nov 2026'");
    }

    @Test
    void aBudgetNeedsAReasoningModelAndAWellFormedValue() {
        ConfigProblem none = problem(withModel("    reasoning: {family: none, budget: none}\n" + M2_OK));
        ConfigProblem word = problem(withModel("    supports_reasoning: true\n    reasoning: {family: always, budget: unlimited}\n" + M2_OK));
        ConfigProblem half = problem(withModel("    supports_reasoning: true\n    reasoning: {family: always, budget: {min: 1}}\n" + M2_OK));

        assertThat(none.line()).isEqualTo(14);
        assertThat(none.message()).isEqualTo("reasoning of model 'm2' gives a budget but its family is none (remove budget)");
        assertThat(word.line()).isEqualTo(15);
        assertThat(word.message()).isEqualTo("'budget' of reasoning of model 'm2' must be none (the upstream takes effort levels only) "
                + "or a range, e.g. budget: {min: 1024, max: 32000}, got 'unlimited'");
        assertThat(half.message()).isEqualTo("budget of reasoning of model 'm2' has no 'max' (add max: N, in tokens (budget: {min: 1024, "
                + "max: 32000}))");
    }

    @Test
    void reasoningFamilyMustAgreeWithTheFlag() {
        ConfigProblem on = problem(withModel("    supports_reasoning: true\n    reasoning: {family: none}\n" + M2_OK));
        ConfigProblem off = problem(withModel("    reasoning: {family: hybrid}\n" + M2_OK));

        assertThat(on.line()).isEqualTo(15);
        assertThat(on.message()).isEqualTo("model 'm2' has supports_reasoning: true but reasoning.family none (use hybrid or always, "
                + "or set supports_reasoning: false)");
        assertThat(off.line()).isEqualTo(14);
        assertThat(off.message()).isEqualTo("model 'm2' has reasoning.family hybrid but supports_reasoning is not true (set "
                + "supports_reasoning: true, or remove reasoning)");
    }

    @Test
    void keysMissingOrEmptyForARealProvider() {
        List<ConfigProblem> ps = problems("""
                providers:
                  openai:
                    type: openai
                  claude:
                    type: anthropic
                    keys: []
                  google:
                    type: gemini
                    keys: ["${GEMINI_API_KEY}"]
                models:
                  m1:
                    context_length: 1000
                    max_output_tokens: 100
                    pricing: {input: 1, output: 2}
                    route: [{provider: openai}, {provider: claude}, {provider: google}]
                """, Map.of("GEMINI_API_KEY", "  "));

        assertThat(ps).extracting(ConfigProblem::line).containsExactly(2, 6, 9);
        assertThat(ps.get(0).message()).isEqualTo("provider 'openai' has no 'keys' (add keys: [\"${OPENAI_API_KEY}\"]; several keys "
                + "are tried in order)");
        assertThat(ps.get(1).message()).isEqualTo("'keys' of provider 'claude' is empty; a provider of type anthropic needs at least "
                + "one API key (e.g. keys: [\"${ANTHROPIC_API_KEY}\"])");
        assertThat(ps.get(2).message()).isEqualTo("key 1 of provider 'google' is empty (is the environment variable set to a value?) "
                + "[the value comes from ${GEMINI_API_KEY}]");
    }

    @Test
    void baseUrlProblemsHaveExactLines() {
        List<ConfigProblem> ps = problems("""
                providers:
                  a:
                    type: openai
                    base_url: ftp://api.openai.com/v1
                    keys: [k]
                  b:
                    type: openai
                    base_url: api.openai.com/v1
                    keys: [k]
                  c:
                    type: openai
                    base_url: https://user:pw@proxy.local/v1
                    keys: [k]
                  d:
                    type: simulator
                    base_url: http://localhost:1
                """ + oneModel("a"));

        assertThat(ps).extracting(ConfigProblem::line).containsExactly(4, 8, 12, 16);
        assertThat(ps.get(0).message()).isEqualTo("'base_url' of provider 'a' is not an http(s) URL: 'ftp://api.openai.com/v1' "
                + "(expected an http:// or https:// URL such as https://api.openai.com/v1, what you would give the vendor's own SDK)");
        assertThat(ps.get(1).message()).startsWith("'base_url' of provider 'b' is not an http(s) URL: 'api.openai.com/v1'");
        assertThat(ps.get(2).message()).isEqualTo("'base_url' of provider 'c' must not carry credentials (put them in keys)")
                .doesNotContain("pw");
        assertThat(ps.get(3).message()).startsWith("a simulator provider has no base_url");
    }

    @Test
    void databaseAndRedisUrls() {
        List<ConfigProblem> ps = problems("database: mysql://root:pw@db/x\nredis: http://cache:6379\n" + BASE);

        assertThat(ps).extracting(ConfigProblem::line).containsExactly(1, 2);
        assertThat(ps.get(0).message()).isEqualTo("'database' must be sqlite:PATH or postgresql://user:password@host:5432/db, got "
                + "'mysql://root:***@db/x' (e.g. sqlite:data/switchboard.db)");
        assertThat(ps.get(1).message()).isEqualTo("'redis' is not a Redis URI: 'http://cache:6379' (expected redis://host:6379, or "
                + "rediss://host:6380 for TLS)");
    }

    @Test
    void recursiveAliasesAreRefused() {
        List<ConfigProblem> ps = problems("x-loop: &loop [1, *loop]\n" + BASE);

        assertThat(ps).extracting(ConfigProblem::message).contains(
                "an alias refers to a value that contains it (remove the recursive *alias)");
    }

    @Test
    void severalErrorsAreReportedTogetherSortedByLine() {
        String yaml = """
                listen: nowhere
                providers:
                  openai:
                    type: openia
                    keys: [k]
                    timeouts: {connect: soon}
                models:
                  m1:
                    context_length: 1000
                    max_output_tokens: 100
                    supports_reasoning: true
                    reasoning: {family: always, efforts: [extreme]}
                    pricing: {input: -1, output: 2}
                    route: [{provider: claude}]
                  m2:
                    aliases: [m1]
                    context_length: 1000
                    max_output_tokens: 100
                    pricing: {input: 1, output: 2}
                """;

        ConfigException e = org.junit.jupiter.api.Assertions.assertThrows(ConfigException.class, () -> ConfigSupport.parse(yaml));

        assertThat(e.problems()).extracting(ConfigProblem::line).containsExactly(1, 4, 6, 12, 13, 14, 15, 16);
        assertThat(e.getMessage()).startsWith("8 configuration errors (fix all of them, the gateway does not start half-configured):\n"
                + "switchboard.yaml:1:9: 'listen' must be host:port");
        assertThat(e.getMessage().lines()).hasSize(9);
    }

    @Test
    void problemsFromTheEnvironmentNameTheVariable() {
        ConfigProblem p = ConfigSupport.problems("listen: ${LISTEN}\n" + BASE, Map.of("LISTEN", "everywhere")).get(0);

        assertThat(p.message()).endsWith("[the value comes from ${LISTEN}]");
    }

    @Test
    void errorsNeverEchoKeys() {
        assertThatThrownBy(() -> ConfigSupport.parse(BASE.replace("type: openai", "type: openia").replace("sk-1", "sk-very-secret")))
                .isInstanceOf(ConfigException.class)
                .message().doesNotContain("sk-very-secret");
    }
}
