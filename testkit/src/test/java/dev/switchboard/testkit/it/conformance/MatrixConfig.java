package dev.switchboard.testkit.it.conformance;

import dev.switchboard.testkit.TestGateway;

/**
 * The one gateway the whole matrix runs against: a provider per upstream format, all at the fake upstream,
 * and a model per (upstream, feature) flagged for exactly that feature, so a missing flag or a flag that
 * is not needed shows.
 */
final class MatrixConfig {
    private MatrixConfig() {
    }

    static String yaml() {
        StringBuilder yaml = new StringBuilder(TestGateway.DEFAULT_HEADER).append("providers:\n");
        for (Upstream u : Upstream.values()) {
            yaml.append("  ").append(u.provider()).append(":\n")
                    .append("    type: ").append(u.type).append('\n')
                    .append("    base_url: ").append(u.baseUrl).append('\n')
                    .append("    keys: [\"").append(u.key).append("\"]\n")
                    .append("    timeouts: {connect: 1s, first_byte: 5s, idle: 5s, total: 20s}\n");
        }
        yaml.append("models:\n");
        for (Upstream u : Upstream.values()) {
            for (Feature f : Feature.values()) {
                yaml.append("  ").append(u.model(f)).append(":\n")
                        .append("    context_length: 100000\n")
                        .append("    max_output_tokens: 4096\n")
                        .append(flags(f))
                        .append("    pricing: {input: 1, output: 2}\n")
                        .append("    route: [{provider: ").append(u.provider()).append(", model: ")
                        .append(u.upstreamModel(f)).append("}]\n");
            }
        }
        return yaml.toString();
    }

    private static String flags(Feature feature) {
        return switch (feature) {
            case TEXT -> "";
            case TOOLS -> "    supports_tools: true\n    supports_json: false\n";
            case REASONING -> "    supports_reasoning: true\n    reasoning: {family: hybrid, efforts: [low, medium, high]}\n";
            case IMAGE -> "    supports_vision: true\n";
            case JSON, SCHEMA -> "    supports_json: true\n";
        };
    }
}
