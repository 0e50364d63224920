package dev.switchboard.testkit.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.testkit.GatewayExtension;
import dev.switchboard.testkit.TestGateway;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a caller sees when its model's only provider answers with an error status, for every client
 * format and every provider format: the spec's status and {@code type} (section 7), the same whichever
 * provider failed. A provider's request error reaches the caller as it is (400, 402 {@code insufficient_quota},
 * 404 {@code model_not_found}, 413, 422); a refused provider key (401, 403) and every retryable failure end
 * as 503 {@code api_error} once nothing else is left to try; a rate limit is 429 {@code rate_limit_error}.
 */
class UpstreamErrorTypesIT {
    /** What the caller gets (status and type) for each upstream status. */
    private static final Map<Integer, Expected> OUTCOMES = new TreeMap<>(Map.ofEntries(
            Map.entry(400, new Expected(400, "invalid_request_error")), Map.entry(401, Expected.UNAVAILABLE),
            Map.entry(402, new Expected(402, "insufficient_quota")), Map.entry(403, Expected.UNAVAILABLE),
            Map.entry(404, new Expected(404, "model_not_found")), Map.entry(409, Expected.UNAVAILABLE),
            Map.entry(413, new Expected(413, "invalid_request_error")), Map.entry(422, new Expected(422, "invalid_request_error")),
            Map.entry(429, new Expected(429, "rate_limit_error")), Map.entry(500, Expected.UNAVAILABLE),
            Map.entry(502, Expected.UNAVAILABLE), Map.entry(503, Expected.UNAVAILABLE), Map.entry(529, Expected.UNAVAILABLE)));

    private record Expected(int status, String type) {
        static final Expected UNAVAILABLE = new Expected(503, "api_error");
    }

    /** Provider id in the config, its type, and the fake's base URL for it. */
    private static final List<List<String>> PROVIDERS = List.of(
            List.of("oa", "openai", "${UPSTREAM_OPENAI}"),
            List.of("an", "anthropic", "${UPSTREAM}"),
            List.of("gm", "gemini", "${UPSTREAM}"),
            List.of("rs", "openai-responses", "${UPSTREAM_OPENAI}"));

    @RegisterExtension
    static final GatewayExtension GATEWAY = new GatewayExtension(config());

    private static String config() {
        StringBuilder yaml = new StringBuilder(TestGateway.DEFAULT_HEADER).append("providers:\n");
        for (List<String> p : PROVIDERS) {
            yaml.append("  ").append(p.get(0)).append(":\n")
                    .append("    type: ").append(p.get(1)).append('\n')
                    .append("    base_url: ").append(p.get(2)).append('\n')
                    .append("    keys: [\"sk-upstream-").append(p.get(0)).append("-0123456789\"]\n")
                    .append("    timeouts: {connect: 1s, first_byte: 3s, idle: 3s, total: 10s}\n");
        }
        yaml.append("models:\n");
        for (List<String> p : PROVIDERS) {
            for (int status : OUTCOMES.keySet()) {
                yaml.append("  ").append(model(p.get(0), status)).append(":\n")
                        .append("    context_length: 8192\n    max_output_tokens: 256\n")
                        .append("    pricing: {input: 0, output: 0}\n")
                        .append("    route: [{provider: ").append(p.get(0)).append(", model: e-fail").append(status)
                        .append("}]\n");
            }
        }
        return yaml.toString();
    }

    private static String model(String provider, int status) {
        return provider + "-" + status;
    }

    /** One client format: how its caller asks for {@code model}. */
    private interface ClientFormat {
        HttpResponse<String> ask(TestGateway gateway, String model);
    }

    private static final Map<String, ClientFormat> FORMATS = Map.of(
            "chat-completions", (g, m) -> ItSupport.post(g, "/v1/chat/completions", ItSupport.bearer(g.apiKey()),
                    "{\"model\":\"" + m + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"),
            "messages", (g, m) -> ItSupport.post(g, "/v1/messages", Map.of("x-api-key", g.apiKey(),
                            "anthropic-version", "2023-06-01", "content-type", "application/json"),
                    "{\"model\":\"" + m + "\",\"max_tokens\":16,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"),
            "content-parts", (g, m) -> ItSupport.post(g, "/v1beta/models/" + m + ":generateContent",
                    Map.of("x-goog-api-key", g.apiKey(), "content-type", "application/json"),
                    "{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"hi\"}]}]}"),
            "responses", (g, m) -> ItSupport.post(g, "/v1/responses", ItSupport.bearer(g.apiKey()),
                    "{\"model\":\"" + m + "\",\"input\":\"hi\",\"store\":false}"));

    @TestFactory
    Stream<DynamicNode> theCallerGetsTheSpecsStatusAndTypeWhicheverProviderFailed() {
        TestGateway gateway = GATEWAY.gateway();
        List<DynamicNode> formats = new ArrayList<>();
        for (String format : FORMATS.keySet().stream().sorted().toList()) {
            List<DynamicNode> providers = new ArrayList<>();
            for (List<String> provider : PROVIDERS) {
                providers.add(DynamicTest.dynamicTest(provider.get(1) + " failed", () -> {
                    Map<Integer, Expected> seen = new TreeMap<>();
                    for (int upstream : OUTCOMES.keySet()) {
                        HttpResponse<String> r = FORMATS.get(format).ask(gateway, model(provider.get(0), upstream));
                        assertThat(gateway.upstream().received().getLast().model()).as("the provider was asked")
                                .contains("e-fail" + upstream);
                        JsonNode error = ItSupport.json(r.body()).path("error");
                        assertThat(error.path("code").asText()).as("%s answered %d: code", provider.get(1), upstream)
                                .isEqualTo(Integer.toString(r.statusCode()));
                        seen.put(upstream, new Expected(r.statusCode(), error.path("type").asText()));
                    }
                    assertThat(seen).as("upstream status -> what a %s caller got", format).isEqualTo(OUTCOMES);
                }));
            }
            formats.add(DynamicContainer.dynamicContainer(format, providers));
        }
        return formats.stream();
    }
}
