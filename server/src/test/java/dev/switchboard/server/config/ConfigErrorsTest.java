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
import java.util.HashMap;
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

    /** The rows of a table of configs under {@code config/}, each named by its {@code case}. */
    private static Stream<Arguments> table(String file) throws IOException {
        try (InputStream in = ConfigErrorsTest.class.getResourceAsStream("/config/" + file)) {
            JsonNode table = new YAMLMapper().readTree(in);
            return StreamSupport.stream(table.spliterator(), false).map(row -> Arguments.of(row.path("case").asText(), row));
        }
    }

    static Stream<Arguments> oneErrorConfigs() throws IOException {
        return table("one-error-configs.yaml");
    }

    static Stream<Arguments> severalErrorConfigs() throws IOException {
        return table("several-error-configs.yaml");
    }

    /** {@code p} is where {@code expected} says (line, and column where given) and says what it says. */
    private static void assertProblem(ConfigProblem p, JsonNode expected) {
        assertThat(p.line()).as("the line of %s", p.render()).isEqualTo(expected.path("line").asInt());
        if (expected.has("column")) {
            assertThat(p.column()).as("the column of %s", p.render()).isEqualTo(expected.path("column").asInt());
        }
        assertThat(expected.has("message") || expected.has("starts_with") || expected.has("contains"))
                .as("the table says what the message is").isTrue();
        if (expected.has("message")) {
            assertThat(p.message()).isEqualTo(expected.path("message").asText());
        }
        if (expected.has("starts_with")) {
            assertThat(p.message()).startsWith(expected.path("starts_with").asText());
        }
        if (expected.has("ends_with")) {
            assertThat(p.message()).endsWith(expected.path("ends_with").asText());
        }
        expected.path("contains").forEach(fragment -> assertThat(p.message()).contains(fragment.asText()));
        expected.path("not_contains").forEach(fragment -> assertThat(p.message()).doesNotContain(fragment.asText()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("oneErrorConfigs")
    void theOneErrorIsPlacedAndSaysWhatWasExpected(String name, JsonNode row) {
        assertProblem(problem(row.path("config").asText()), row);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("severalErrorConfigs")
    void everyErrorIsReportedInOrderPlacedAndSaysWhatWasExpected(String name, JsonNode row) {
        Map<String, String> env = new HashMap<>();
        row.path("env").properties().forEach(e -> env.put(e.getKey(), e.getValue().asText()));

        List<ConfigProblem> ps = problems(row.path("config").asText(), env);

        JsonNode expected = row.path("problems");
        assertThat(ps).extracting(ConfigProblem::line)
                .containsExactlyElementsOf(StreamSupport.stream(expected.spliterator(), false).map(e -> e.path("line").asInt()).toList());
        for (int i = 0; i < ps.size(); i++) {
            assertProblem(ps.get(i), expected.get(i));
        }
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
