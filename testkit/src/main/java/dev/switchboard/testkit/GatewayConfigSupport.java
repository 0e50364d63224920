package dev.switchboard.testkit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The provider and model entries of the gateway configs that tests start, written once: most test models are
 * the same five lines of YAML (limits, price, route) and most providers the same four, so a test's config
 * states only what sets it apart and a reader sees at a glance which models differ in what.
 *
 * <p>{@link #providers} and {@link #models} return top-level YAML sections (ending in a newline) to append to
 * a header such as {@link TestGateway#DEFAULT_HEADER}; values are written into the YAML as given, so they
 * may be placeholders such as {@code ${UPSTREAM_OPENAI}} or {@code %1$s}.
 */
public final class GatewayConfigSupport {
    /** The timeouts of most test providers: a quick verdict, with room for a loaded machine. */
    public static final String TIMEOUTS = "{connect: 1s, first_byte: 3s, idle: 3s, total: 10s}";
    /** Provider timeouts with more room, for upstreams that stream long or reason first. */
    public static final String SLOWER = "{connect: 1s, first_byte: 5s, idle: 5s, total: 20s}";
    /** The price of a model whose cost the test does not look at. */
    public static final String FREE = "{input: 0, output: 0}";
    /** A line to append to a {@link #provider} entry: no circuit breaker, for tests that ask failing targets on purpose. */
    public static final String BREAKER_OFF = providerLine("breaker: off");

    private GatewayConfigSupport() {
    }

    /**
     * The top of a config for a gateway started on its own ({@code GatewayApp.start}, no environment): the usual
     * listen address, {@code database} (a URL, or a {@code ${VARIABLE}} the starter sets) and the tests' admin key.
     */
    public static String header(String database) {
        return "listen: 127.0.0.1:8080\ndatabase: " + database + "\nadmin_key: " + TestGateway.ADMIN_KEY + "\n";
    }

    /** A {@code providers:} section of {@code entries}, each from {@link #provider}. */
    public static String providers(String... entries) {
        return "providers:\n" + String.join("", entries);
    }

    /** A provider entry: {@code type} at {@code baseUrl}, sending {@code keys} in turn, with {@code timeouts}. */
    public static String provider(String name, String type, String baseUrl, String timeouts, String... keys) {
        return untimedProvider(name, type, baseUrl, keys) + providerLine("timeouts: " + timeouts);
    }

    /** A provider entry with the gateway's default timeouts: {@code type} at {@code baseUrl}, sending {@code keys} in turn. */
    public static String untimedProvider(String name, String type, String baseUrl, String... keys) {
        return """
                  %s:
                    type: %s
                    base_url: %s
                    keys: [%s]
                """.formatted(name, type, baseUrl, quoted(keys));
    }

    /** An OpenAI-format provider on the fake upstream ({@code ${UPSTREAM_OPENAI}}) with {@link #TIMEOUTS}. */
    public static String openAiProvider(String name, String... keys) {
        return provider(name, "openai", "${UPSTREAM_OPENAI}", TIMEOUTS, keys);
    }

    /** An Anthropic-format provider on the fake upstream ({@code ${UPSTREAM}}) with {@link #TIMEOUTS}. */
    public static String anthropicProvider(String name, String... keys) {
        return provider(name, "anthropic", "${UPSTREAM}", TIMEOUTS, keys);
    }

    /** A provider of the gateway's built-in simulator, which needs no upstream. */
    public static String simulatorProvider(String name) {
        return "  " + name + ": {type: simulator}\n";
    }

    /** {@code member} (unindented YAML such as {@code streaming: false}) as a line to append to a {@link #provider} entry. */
    public static String providerLine(String member) {
        return "    " + member + "\n";
    }

    /** A {@code models:} section of {@code models}, in order. */
    public static String models(Model... models) {
        StringBuilder yaml = new StringBuilder("models:\n");
        for (Model model : models) {
            yaml.append(model.yaml());
        }
        return yaml.toString();
    }

    /** A model with the tests' usual limits (8192 tokens of context, 1024 of output), {@link #FREE}, no route yet. */
    public static Model model(String name) {
        return new Model(name, 8192, 1024, FREE, List.of(), List.of(), List.of(), List.of());
    }

    private static String quoted(String... values) {
        return String.join(", ", Arrays.stream(values).map(v -> "\"" + v + "\"").toList());
    }

    /**
     * One model entry; each method returns a copy with one part changed.
     *
     * @param features the {@code supports_*} flags set to true, by their suffix ({@code tools}, {@code reasoning})
     * @param more     further lines of the entry as YAML ({@code payg: false}), written before the route
     * @param route    the route's steps in order, each {@code provider/upstream-model}
     */
    public record Model(String name, int contextLength, int maxOutputTokens, String pricing, List<String> aliases,
                        List<String> features, List<String> more, List<String> route) {
        public Model {
            aliases = List.copyOf(aliases);
            features = List.copyOf(features);
            more = List.copyOf(more);
            route = List.copyOf(route);
        }

        public Model limits(int context, int maxOutput) {
            return new Model(name, context, maxOutput, pricing, aliases, features, more, route);
        }

        /** The price per million tokens as a YAML mapping, e.g. {@code "{input: 1, output: 2}"}. */
        public Model pricing(String yaml) {
            return new Model(name, contextLength, maxOutputTokens, yaml, aliases, features, more, route);
        }

        public Model aliases(String... names) {
            return new Model(name, contextLength, maxOutputTokens, pricing, List.of(names), features, more, route);
        }

        public Model supports(String... suffixes) {
            return new Model(name, contextLength, maxOutputTokens, pricing, aliases, List.of(suffixes), more, route);
        }

        /** Adds {@code lines} (YAML members of the entry, unindented) after the ones set so far. */
        public Model with(String... lines) {
            List<String> all = new ArrayList<>(more);
            all.addAll(List.of(lines));
            return new Model(name, contextLength, maxOutputTokens, pricing, aliases, features, all, route);
        }

        /** The route, each step {@code provider/upstream-model} (the first slash splits them). */
        public Model route(String... steps) {
            return new Model(name, contextLength, maxOutputTokens, pricing, aliases, features, more, List.of(steps));
        }

        /** The entry as YAML, indented to sit under {@code models:}. */
        public String yaml() {
            if (route.isEmpty()) {
                throw new IllegalStateException("model " + name + " has no route");
            }
            List<String> lines = new ArrayList<>();
            lines.add("  " + name + ":");
            if (!aliases.isEmpty()) {
                lines.add("    aliases: [" + String.join(", ", aliases) + "]");
            }
            lines.add("    context_length: " + contextLength);
            lines.add("    max_output_tokens: " + maxOutputTokens);
            features.forEach(f -> lines.add("    supports_" + f + ": true"));
            lines.add("    pricing: " + pricing);
            more.forEach(m -> lines.add("    " + m));
            lines.add("    route: [" + String.join(", ", route.stream().map(Model::step).toList()) + "]");
            return String.join("\n", lines) + "\n";
        }

        private static String step(String step) {
            int slash = step.indexOf('/');
            if (slash < 1) {
                throw new IllegalArgumentException("a route step is provider/model, not " + step);
            }
            return "{provider: " + step.substring(0, slash) + ", model: " + step.substring(slash + 1) + "}";
        }
    }
}
