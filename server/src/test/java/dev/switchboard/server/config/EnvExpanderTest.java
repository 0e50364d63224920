package dev.switchboard.server.config;

import static dev.switchboard.server.config.ConfigSupport.BASE;
import static dev.switchboard.server.config.ConfigSupport.oneModel;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EnvExpanderTest {
    private final EnvExpander env = new EnvExpander(Map.of("HOST", "db.internal", "PORT", "5432", "EMPTY", "", "A", "x"));

    private String expand(String text) {
        return env.expand(text, new LinkedHashSet<>());
    }

    /** One value each: set variables, defaults as a shell applies them, nested defaults, literal dollars. */
    @ParameterizedTest(name = "{0} => {1}")
    @CsvSource(delimiterString = " => ", quoteCharacter = '"', textBlock = """
            # set variables
            postgresql://${HOST}:${PORT}/sb => postgresql://db.internal:5432/sb
            # defaults apply when unset or empty, like a shell
            ${NOPE:-127.0.0.1:8080} => 127.0.0.1:8080
            ${EMPTY:-fallback} => fallback
            ${PORT:-1} => 5432
            ${NOPE:-} => ""
            # a set but empty variable without a default is empty
            [${EMPTY}] => []
            # defaults may nest, and hold colons and dashes
            ${NOPE:-${HOST}} => db.internal
            ${NOPE:-${ALSO_NOPE:-a:-b}} => a:-b
            # $${ is a literal ${, and other dollars stay
            $${HOST} costs $5 and ${A} => ${HOST} costs $5 and x
            """)
    void expands(String text, String expected) {
        assertThat(expand(text)).isEqualTo(expected);
    }

    @Test
    void recordsTheVariablesRead() {
        Set<String> used = new LinkedHashSet<>();
        env.expand("${HOST}:${NOPE:-${PORT}}", used);
        assertThat(used).containsExactly("HOST", "NOPE", "PORT");
    }

    @Test
    void anUnsetVariableWithoutDefaultIsAnError() {
        assertThatThrownBy(() -> expand("${OPENAI_API_KEY}")).hasMessage(
                "environment variable OPENAI_API_KEY is not set (set it, or give a default: ${OPENAI_API_KEY:-value})");
    }

    @Test
    void malformedReferencesAreErrors() {
        assertThatThrownBy(() -> expand("${HOST")).hasMessageStartingWith("unclosed '${'");
        assertThatThrownBy(() -> expand("${1BAD}")).hasMessageStartingWith("'${1BAD}' is not a variable reference");
        assertThatThrownBy(() -> expand("${}")).hasMessageStartingWith("'${}' is not a variable reference");
    }

    @Test
    void everyScalarValueOfAConfigIsExpandedButNotKeys() {
        GatewayConfig c = ConfigSupport.parse("""
                listen: ${LISTEN_HOST:-0.0.0.0}:${LISTEN_PORT}
                providers:
                  openai:
                    type: ${TYPE:-openai}
                    keys: ["${KEY}"]
                models:
                  m1:
                    context_length: ${CTX}
                    max_output_tokens: 100
                    supports_tools: ${TOOLS:-true}
                    pricing: {input: "${PRICE}", output: 2}
                    route: [{provider: "${PROVIDER}", model: "${UPSTREAM:-gpt-4o}"}]
                """, Map.of("LISTEN_PORT", "9000", "KEY", "sk-x", "CTX", "128000", "PRICE", "0.15", "PROVIDER", "openai"));

        assertThat(c.listen()).isEqualTo(new ListenAddress("0.0.0.0", 9000));
        assertThat(c.catalog().provider("openai").orElseThrow().keys()).containsExactly("sk-x");
        var m = c.catalog().resolve("m1").orElseThrow();
        assertThat(m.contextLength()).isEqualTo(128_000);
        assertThat(m.capabilities().supportsTools()).isTrue();
        assertThat(m.pricing().inputPerMillion()).isEqualTo(150_000_000L);
        assertThat(m.route().get(0).upstreamModel()).isEqualTo("gpt-4o");
    }

    @Test
    void keysAreNotExpanded() {
        ConfigProblem p = ConfigSupport.problem(BASE.replace("  simulator:", "  ${SIM}:"));

        assertThat(p.line()).isEqualTo(5);
        assertThat(p.message()).endsWith("; ${VAR} is expanded in values, not in keys)");
        assertThat(ConfigSupport.problems(BASE.replace("  m1:", "  ${MODEL}:"))).extracting(ConfigProblem::message)
                .contains("model id '${MODEL}' looks like a variable, but ${VAR} is expanded in values, not in keys (write the id itself)");
    }

    @Test
    void anExpandedValueCannotInjectYaml() {
        GatewayConfig c = ConfigSupport.parse("admin_key: ${EVIL}\n" + BASE, Map.of("EVIL", "x\nlisten: 0.0.0.0:1"));

        assertThat(c.adminKey()).contains("x\nlisten: 0.0.0.0:1");
        assertThat(c.listen()).isEqualTo(ListenAddress.DEFAULT);
    }

    @Test
    void everyUnsetVariableIsReportedWithItsLine() {
        List<ConfigProblem> ps = ConfigSupport.problems("""
                admin_key: ${SWITCHBOARD_ADMIN_KEY}
                providers:
                  openai:
                    type: openai
                    keys: ["${OPENAI_API_KEY}", "${OPENAI_API_KEY_2}"]
                """ + oneModel("openai"));

        assertThat(ps).extracting(ConfigProblem::render).containsExactly(
                "switchboard.yaml:1:12: environment variable SWITCHBOARD_ADMIN_KEY is not set (set it, or give a default: "
                        + "${SWITCHBOARD_ADMIN_KEY:-value})",
                "switchboard.yaml:5:12: environment variable OPENAI_API_KEY is not set (set it, or give a default: ${OPENAI_API_KEY:-value})",
                "switchboard.yaml:5:33: environment variable OPENAI_API_KEY_2 is not set (set it, or give a default: "
                        + "${OPENAI_API_KEY_2:-value})");
    }
}
