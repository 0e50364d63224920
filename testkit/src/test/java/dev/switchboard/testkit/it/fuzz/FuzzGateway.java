package dev.switchboard.testkit.it.fuzz;

import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.openAiProvider;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;

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
                """
                + providers(openAiProvider("fake", upstreamKey))
                + models(
                        model("fuzz-all").limits(200000, 4096).supports("tools", "vision", "reasoning", "json").route("fake/up-basic"),
                        model("chat-basic").limits(200000, 4096).route("fake/up-backup"));
    }
}
