package dev.switchboard.testkit.it.fuzz;

import dev.switchboard.testkit.TestGateway;

/**
 * The gateway the bad-input suites throw at: a 2 MB body limit, one model with every capability (so a request is
 * refused for its shape, not for a missing feature) and one plain model, both on a fake upstream whose key the
 * suites look for in every answer.
 */
final class FuzzGateway {

    private FuzzGateway() {
    }

    /** The config, with {@code upstreamKey} as the fake provider's key. */
    static String config(String upstreamKey) {
        return TestGateway.DEFAULT_HEADER + """
                http: {max_body: 2MB}
                providers:
                  fake:
                    type: openai
                    base_url: ${UPSTREAM_OPENAI}
                    keys: ["%s"]
                    timeouts: {connect: 1s, first_byte: 3s, idle: 3s, total: 10s}
                models:
                  fuzz-all:
                    context_length: 200000
                    max_output_tokens: 4096
                    supports_tools: true
                    supports_vision: true
                    supports_reasoning: true
                    supports_json: true
                    pricing: {input: 0, output: 0}
                    route: [{provider: fake, model: up-basic}]
                  chat-basic:
                    context_length: 200000
                    max_output_tokens: 4096
                    pricing: {input: 0, output: 0}
                    route: [{provider: fake, model: up-backup}]
                """.formatted(upstreamKey);
    }
}
