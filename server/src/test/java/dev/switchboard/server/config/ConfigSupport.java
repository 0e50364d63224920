package dev.switchboard.server.config;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/** Shared helpers: parse a config text as {@code switchboard.yaml} and get its problems. */
final class ConfigSupport {
    static final String FILE = "switchboard.yaml";

    static final Map<String, String> ALL_KEYS = Map.of(
            "OPENAI_API_KEY", "sk-test-openai",
            "ANTHROPIC_API_KEY", "sk-ant-test",
            "GEMINI_API_KEY", "gm-test",
            "OPENROUTER_API_KEY", "sk-or-test");

    private ConfigSupport() {
    }

    static GatewayConfig parse(String yaml) {
        return parse(yaml, Map.of());
    }

    static GatewayConfig parse(String yaml, Map<String, String> env) {
        return ConfigLoader.parse(yaml, FILE, env);
    }

    static List<ConfigProblem> problems(String yaml) {
        return problems(yaml, Map.of());
    }

    static List<ConfigProblem> problems(String yaml, Map<String, String> env) {
        AtomicReference<ConfigException> caught = new AtomicReference<>();
        assertThatThrownBy(() -> parse(yaml, env)).isInstanceOfSatisfying(ConfigException.class, caught::set);
        return caught.get().problems();
    }

    /** The single problem of {@code yaml}; fails when there are more or none. */
    static ConfigProblem problem(String yaml) {
        List<ConfigProblem> all = problems(yaml);
        if (all.size() != 1) {
            throw new AssertionError("expected exactly one problem, got " + all.size() + ":\n" + String.join("\n",
                    all.stream().map(ConfigProblem::render).toList()));
        }
        return all.get(0);
    }

    /**
     * A {@code models:} section with one valid model, {@code m1}, routed to {@code provider}: the tail of a config
     * whose test is about what comes before it (the text is the same as if written out, line numbers included).
     */
    static String oneModel(String provider) {
        return """
                models:
                  m1:
                    context_length: 1000
                    max_output_tokens: 100
                    pricing: {input: 1, output: 2}
                    route: [{provider: %s}]
                """.formatted(provider);
    }

    /** A valid config with an openai and a simulator provider, and one model; tests append to it. */
    static final String BASE = """
            providers:
              openai:
                type: openai
                keys: [sk-1]
              simulator:
                type: simulator
            models:
              m1:
                context_length: 1000
                max_output_tokens: 100
                pricing: {input: 1, output: 2}
                route: [{provider: openai, model: gpt-4o}]
            """;
}
