package dev.switchboard.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.Usage;
import dev.switchboard.wire.anthropic.Anthropic;
import dev.switchboard.wire.anthropic.AnthropicClientStreamWriter;
import dev.switchboard.wire.gemini.Gemini;
import dev.switchboard.wire.gemini.GeminiClientStreamWriter;
import dev.switchboard.wire.openai.OpenAi;
import dev.switchboard.wire.openai.OpenAiClientStreamWriter;
import dev.switchboard.wire.responses.Responses;
import dev.switchboard.wire.testing.Golden;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * A provider's error reaches a caller with the spec's {@code type} for its status (spec section 7),
 * whichever provider failed and whichever format the caller speaks: every provider's error reader, fed
 * that provider's own envelope, gives the spec's status and type, and every client format renders them
 * (in its HTTP error body and, for the formats whose in-band errors carry a type, in a failed stream).
 * The expected types are written out here, not taken from the code under test.
 */
class UpstreamErrorTypesTest {
    /** Spec 7: 400 invalid_request_error, 401 auth_required, 402 insufficient_quota, 403 model_access_denied,
     * 404 model_not_found, 429 rate_limit_error, 5xx api_error; other 4xx are request errors. */
    private static final Map<Integer, String> SPEC_TYPES = Map.ofEntries(
            Map.entry(400, "invalid_request_error"), Map.entry(401, "auth_required"),
            Map.entry(402, "insufficient_quota"), Map.entry(403, "model_access_denied"),
            Map.entry(404, "model_not_found"), Map.entry(408, "invalid_request_error"),
            Map.entry(409, "invalid_request_error"), Map.entry(413, "invalid_request_error"),
            Map.entry(422, "invalid_request_error"), Map.entry(429, "rate_limit_error"),
            Map.entry(500, "api_error"), Map.entry(502, "api_error"), Map.entry(503, "api_error"),
            Map.entry(504, "api_error"), Map.entry(529, "api_error"));

    /** One provider: its own error body for a status, and its reader. */
    private record Provider(String name, Function<Integer, String> body, ErrorReader reader) {
    }

    @FunctionalInterface
    private interface ErrorReader {
        GatewayError read(int status, byte[] body);
    }

    /** One client format: the {@code error} object of its HTTP error body, and of a failed stream when it has one. */
    private record ClientFormat(String name, Function<GatewayError, JsonNode> httpError,
                                Function<GatewayError, List<JsonNode>> streamErrors) {
    }

    private static final List<Provider> PROVIDERS = List.of(
            new Provider("openai", s -> "{\"error\":{\"message\":\"failed\",\"type\":\"upstream_slug\",\"param\":null,"
                    + "\"code\":\"some_code\"}}", OpenAi::errorFromUpstream),
            new Provider("anthropic", s -> "{\"type\":\"error\",\"error\":{\"type\":\"" + anthropicType(s)
                    + "\",\"message\":\"failed\"},\"request_id\":\"req_1\"}", Anthropic::errorFromUpstream),
            new Provider("gemini", s -> "{\"error\":{\"code\":" + s + ",\"message\":\"failed\",\"status\":\""
                    + googleStatus(s) + "\"}}", Gemini::errorFromUpstream),
            new Provider("openai-responses", s -> "{\"error\":{\"message\":\"failed\",\"type\":\"upstream_slug\","
                    + "\"param\":null,\"code\":\"some_code\"}}", Responses::errorFromUpstream));

    private static final List<ClientFormat> CLIENT_FORMATS = List.of(
            new ClientFormat("chat-completions", e -> OpenAi.errorBody(e).path("error"),
                    e -> dataOf(new OpenAiClientStreamWriter(1).write(failedStream(e))).stream()
                            .filter(d -> d.has("error")).map(d -> d.path("error")).toList()),
            new ClientFormat("messages", e -> Anthropic.errorBody(e).path("error"), e -> {
                AnthropicClientStreamWriter w = new AnthropicClientStreamWriter();
                return dataOf(w.write(new StreamEvent.MessageStart("m", "m", Usage.EMPTY)) + w.write(failedStream(e)))
                        .stream().filter(d -> d.path("type").asText().equals("error")).map(d -> d.path("error")).toList();
            }),
            new ClientFormat("content-parts", e -> Gemini.errorBody(e).path("error"),
                    e -> dataOf(new GeminiClientStreamWriter(GeminiClientStreamWriter.Mode.SSE, "m").write(failedStream(e)))
                            .stream().filter(d -> d.has("error")).map(d -> d.path("error")).toList()),
            // A failed Responses stream reports an error code from the SDKs' fixed list, not a type.
            new ClientFormat("responses", e -> Responses.errorBody(e).path("error"), e -> List.of()));

    @TestFactory
    Stream<DynamicNode> everyClientFormatShowsTheSpecsTypeWhicheverProviderFailed() {
        List<DynamicNode> formats = new ArrayList<>();
        for (ClientFormat format : CLIENT_FORMATS) {
            List<DynamicNode> providers = new ArrayList<>();
            for (Provider provider : PROVIDERS) {
                providers.add(DynamicTest.dynamicTest(provider.name() + " failed", () -> {
                    for (Map.Entry<Integer, String> expected : SPEC_TYPES.entrySet()) {
                        int status = expected.getKey();
                        GatewayError error = provider.reader().read(status, utf8(provider.body().apply(status)));
                        String what = provider.name() + " answered " + status + ", " + format.name() + " caller";

                        assertThat(error.status()).as(what).isEqualTo(status);
                        assertThat(error.type()).as(what).isEqualTo(expected.getValue());
                        JsonNode http = format.httpError().apply(error);
                        assertThat(http.path("type").asText()).as(what + ": HTTP body").isEqualTo(expected.getValue());
                        assertThat(http.path("code").asText()).as(what + ": HTTP body code").isEqualTo(Integer.toString(status));
                        for (JsonNode inBand : format.streamErrors().apply(error)) {
                            assertThat(inBand.path("type").asText()).as(what + ": failed stream").isEqualTo(expected.getValue());
                        }
                    }
                }));
            }
            formats.add(DynamicContainer.dynamicContainer(format.name(), providers));
        }
        return formats.stream();
    }

    @Test
    void theStreamFormatsThatCarryATypeInBandShowIt() {
        GatewayError e = Anthropic.errorFromUpstream(404, utf8("{\"type\":\"error\",\"error\":{\"type\":\"not_found_error\","
                + "\"message\":\"model: claude-x\"}}"));
        for (ClientFormat format : CLIENT_FORMATS.subList(0, 3)) {
            assertThat(format.streamErrors().apply(e)).as(format.name()).singleElement()
                    .satisfies(n -> assertThat(n.path("type").asText()).isEqualTo("model_not_found"));
        }
    }

    @Test
    void credentialsInAProvidersMessageAreRedactedWhicheverProviderQuotedThem() {
        String message = "Key sk-ant-api03-abcdefghijkl, sk-proj-****abcd, AIzaSyA1234567890abcdefghijklmnopqrstu "
                + "and Authorization: Bearer eyJhbGciOi.secret were refused";
        for (Provider provider : PROVIDERS) {
            ObjectNode body = (ObjectNode) Json.parse(provider.body().apply(401));
            ObjectNode error = (ObjectNode) body.path("error");
            error.put("message", message);
            GatewayError e = provider.reader().read(401, Json.writeBytes(body));
            assertThat(e.message()).as(provider.name())
                    .isEqualTo("Key [redacted], [redacted], [redacted] and Authorization: [redacted] were refused");
        }
    }

    @Test
    void aProvidersLongMessageIsCutWhicheverProviderSentIt() {
        String message = "x".repeat(5000);
        for (Provider provider : PROVIDERS) {
            ObjectNode body = (ObjectNode) Json.parse(provider.body().apply(500));
            ((ObjectNode) body.path("error")).put("message", message);
            assertThat(provider.reader().read(500, Json.writeBytes(body)).message()).as(provider.name())
                    .hasSizeLessThanOrEqualTo(1003).startsWith("xxx");
        }
    }

    private static StreamEvent failedStream(GatewayError e) {
        return new StreamEvent.StreamError(e);
    }

    private static List<JsonNode> dataOf(String sse) {
        return Golden.events(sse).stream().filter(e -> !e.isDone()).map(e -> Json.parse(e.data())).toList();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Anthropic's error type for a status (its documented table), "api_error" for the rest. */
    private static String anthropicType(int status) {
        return Map.of(400, "invalid_request_error", 401, "authentication_error", 402, "billing_error",
                403, "permission_error", 404, "not_found_error", 413, "request_too_large", 429, "rate_limit_error",
                504, "timeout_error", 529, "overloaded_error").getOrDefault(status, "api_error");
    }

    /** Google's status word as its APIs send it with each HTTP status. */
    private static String googleStatus(int status) {
        return Map.ofEntries(Map.entry(400, "INVALID_ARGUMENT"), Map.entry(413, "INVALID_ARGUMENT"),
                Map.entry(422, "INVALID_ARGUMENT"), Map.entry(401, "UNAUTHENTICATED"), Map.entry(402, "FAILED_PRECONDITION"),
                Map.entry(403, "PERMISSION_DENIED"), Map.entry(404, "NOT_FOUND"), Map.entry(408, "DEADLINE_EXCEEDED"),
                Map.entry(504, "DEADLINE_EXCEEDED"), Map.entry(409, "ABORTED"), Map.entry(429, "RESOURCE_EXHAUSTED"),
                Map.entry(502, "UNAVAILABLE"), Map.entry(503, "UNAVAILABLE"), Map.entry(529, "UNAVAILABLE"))
                .getOrDefault(status, "INTERNAL");
    }
}
