package dev.switchboard.testkit.it;

import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.testkit.GatewayExtension;
import dev.switchboard.testkit.SseStream;
import dev.switchboard.testkit.TestGateway;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The same request means the same thing on every chat endpoint (issue 9.4, 9.6): fallbacks can be asked for on
 * each (the content-parts format through the {@code x-switchboard-fallbacks} header, Responses through
 * {@code models}), errors of the pipeline name the caller format's own field, an unknown skill is refused
 * naming the field that named it, completion ids are never empty, and an error inside a stream carries one status rule.
 */
class SameRulesIT {
    private static final String PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

    @RegisterExtension
    static final GatewayExtension GATEWAY = new GatewayExtension(GeminiItSupport.CONFIG
            + model("gm-noid").route("google/g-noid").yaml());

    private static TestGateway gateway;

    @BeforeAll
    static void connect() {
        gateway = GATEWAY.gateway();
        gateway.upstream().requireKey(GeminiItSupport.GOOGLE_KEY, ItSupport.UPSTREAM_KEY, GeminiItSupport.ANTHROPIC_KEY);
        // a Gemini answer without responseId, as Google's API may send it
        gateway.upstream().script("g-noid", (request, exchange) -> {
            if (!request.path().contains("streamGenerateContent")) {
                exchange.respondJson(200, ItSupport.json("{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":"
                        + "[{\"text\":\"Hello there\"}]},\"finishReason\":\"STOP\",\"index\":0}],\"usageMetadata\":"
                        + "{\"promptTokenCount\":3,\"candidatesTokenCount\":2,\"totalTokenCount\":5},\"modelVersion\":\"g-noid\"}"));
                return;
            }
            SseStream sse = exchange.openSse(200);
            sse.data("{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"Hello\"}]},\"index\":0}],"
                    + "\"modelVersion\":\"g-noid\"}");
            sse.data("{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\" there\"}]},"
                    + "\"finishReason\":\"STOP\",\"index\":0}],\"usageMetadata\":{\"promptTokenCount\":3,"
                    + "\"candidatesTokenCount\":2,\"totalTokenCount\":5},\"modelVersion\":\"g-noid\"}");
            sse.end();
        });
    }

    private static Map<String, String> headers(String... kv) {
        Map<String, String> h = new LinkedHashMap<>(ItSupport.bearer(gateway.apiKey()));
        h.put("content-type", "application/json");
        h.put("anthropic-version", "2023-06-01");
        for (int i = 0; i < kv.length; i += 2) {
            h.put(kv[i], kv[i + 1]);
        }
        return h;
    }

    private static final String CONTENTS = "{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"hi\"}]}]}";

    @Test
    void contentPartsTakesFallbacksFromTheHeader() {
        HttpResponse<String> r = ItSupport.post(gateway, "/v1beta/models/gm-down:generateContent",
                headers("x-switchboard-fallbacks", "no-such-model, oa-basic"), CONTENTS);

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(ItSupport.upstreamModels(gateway)).containsExactly("g-down-fail503", "up-basic");
        assertThat(ItSupport.json(r.body()).at("/candidates/0/content/parts/0/text").asText()).contains("up-basic");
    }

    @Test
    void theHeaderCountsTowardsTheLimitOfThreeFallbacks() {
        HttpResponse<String> r = ItSupport.post(gateway, "/v1beta/models/gm-down:generateContent",
                headers("x-switchboard-fallbacks", "a, b, c, d"), CONTENTS);

        ErrorEnvelopeSupport.assertRefusedNaming(r, "x-switchboard-fallbacks");
        assertThat(gateway.upstream().received()).isEmpty();
    }

    @Test
    void responsesFallBackToTheModelsItNames() {
        HttpResponse<String> r = ItSupport.post(gateway, "/v1/responses", headers(),
                "{\"model\":\"gm-down\",\"input\":\"hi\",\"store\":false,\"models\":[\"oa-basic\"]}");

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(ItSupport.json(r.body()).path("model").asText()).as("the model that answered").isEqualTo("oa-basic");
        assertThat(ItSupport.upstreamModels(gateway)).containsExactly("g-down-fail503", "up-basic");
    }

    @Test
    void messagesCapsFallbacksAndModelsTogether() {
        HttpResponse<String> r = ItSupport.post(gateway, "/v1/messages", headers(), """
                {"model":"an-basic","max_tokens":10,"messages":[{"role":"user","content":"hi"}],
                 "fallbacks":[{"model":"oa-basic"},{"model":"gm-basic"}],"models":["oa-tools","gm-tools"]}""");

        ErrorEnvelopeSupport.assertRefusedNaming(r, "models");
    }

    @Test
    void anImageForAModelWithoutVisionNamesTheFormatsOwnField() {
        String image = "{\"inlineData\":{\"mimeType\":\"image/png\",\"data\":\"" + PNG + "\"}}";
        HttpResponse<String> parts = ItSupport.post(gateway, "/v1beta/models/gm-basic:generateContent", headers(),
                "{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"what?\"}," + image + "]}]}");
        HttpResponse<String> responses = ItSupport.post(gateway, "/v1/responses", headers(), """
                {"model":"gm-basic","store":false,"input":[{"role":"user","content":[{"type":"input_text","text":"what?"},
                 {"type":"input_image","image_url":"data:image/png;base64,%s"}]}]}""".formatted(PNG));

        ErrorEnvelopeSupport.assertRefusedNaming(parts, "contents");
        ErrorEnvelopeSupport.assertRefusedNaming(responses, "input");
        assertThat(gateway.upstream().received()).isEmpty();
    }

    @Test
    void aDataUrlThatIsNotAnImageOrNotBase64IsRefusedBeforeAnyUpstreamCall() {
        for (String url : List.of("data:image/png;base64,%%%not-base64", "data:text/plain;base64,aGVsbG8=")) {
            HttpResponse<String> r = ItSupport.post(gateway, "/v1/chat/completions", headers(), """
                    {"model":"oa-basic","messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"%s"}}]}]}"""
                    .formatted(url));

            assertThat(r.statusCode()).as(url).isEqualTo(400);
            assertThat(ItSupport.json(r.body()).at("/error/param").asText()).isEqualTo("messages[0].content[0].image_url.url");
        }
        assertThat(gateway.upstream().received()).isEmpty();
    }

    @Test
    void anUnknownSkillIsRefusedNamingItsFieldInEveryFormat() {
        HttpResponse<String> chat = ItSupport.post(gateway, "/v1/chat/completions", headers(),
                "{\"model\":\"oa-basic\",\"skill\":\"summarise\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        HttpResponse<String> messages = ItSupport.post(gateway, "/v1/messages", headers(),
                "{\"model\":\"oa-basic\",\"max_tokens\":10,\"skills\":[\"summarise\"],\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        HttpResponse<String> responses = ItSupport.post(gateway, "/v1/responses", headers(),
                "{\"model\":\"oa-basic\",\"store\":false,\"input\":\"hi\",\"skill\":\"summarise\"}");
        HttpResponse<String> contentParts = ItSupport.post(gateway, "/v1beta/models/oa-basic:generateContent",
                headers("x-switchboard-skills", "summarise"), CONTENTS);

        Map<HttpResponse<String>, String> params = Map.of(chat, "skill", messages, "skills[0]", responses, "skill",
                contentParts, "x-switchboard-skills");
        params.forEach((r, param) -> {
            ErrorEnvelopeSupport.assertRefusedNaming(r, param);
            assertThat(ItSupport.json(r.body()).at("/error/message").asText()).contains("summarise");
        });
        assertThat(gateway.upstream().received()).isEmpty();
    }

    @Test
    void orphanToolResultsAreRefusedInEveryFormat() {
        Map<String, String> bodies = Map.of(
                "/v1/chat/completions", """
                        {"model":"oa-tools","messages":[{"role":"user","content":"q"},
                         {"role":"tool","tool_call_id":"call_nobody","content":"42"}]}""",
                "/v1/messages", """
                        {"model":"oa-tools","max_tokens":10,"messages":[{"role":"user","content":[
                         {"type":"tool_result","tool_use_id":"toolu_nobody","content":"42"}]}]}""",
                "/v1beta/models/oa-tools:generateContent", """
                        {"contents":[{"role":"user","parts":[{"functionResponse":{"name":"nobody","response":{"x":1}}}]}]}""",
                "/v1/responses", """
                        {"model":"oa-tools","store":false,"input":[{"type":"function_call_output","call_id":"call_nobody",
                         "output":"42"}]}""");

        bodies.forEach((path, body) -> {
            HttpResponse<String> r = ItSupport.post(gateway, path, headers(), body);
            assertThat(r.statusCode()).as(path).isEqualTo(400);
            assertThat(ItSupport.json(r.body()).at("/error/param").asText()).as(path).isNotBlank();
        });
        assertThat(gateway.upstream().received()).isEmpty();
    }

    @Test
    void streamedChunksFromAGeminiAnswerWithoutIdShareOneNonEmptyId() {
        HttpResponse<String> r = ItSupport.post(gateway, "/v1/chat/completions", headers(),
                "{\"model\":\"gm-noid\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

        assertThat(r.statusCode()).isEqualTo(200);
        List<String> ids = ItSupport.sseData(r.body()).stream().filter(d -> !d.equals("[DONE]"))
                .map(d -> ItSupport.json(d).path("id").asText()).distinct().toList();
        assertThat(ids).as(r.body()).singleElement().asString().isNotBlank();

        HttpResponse<String> plain = ItSupport.post(gateway, "/v1/chat/completions", headers(),
                "{\"model\":\"gm-noid\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertThat(plain.statusCode()).as(plain.body()).isEqualTo(200);
        assertThat(ItSupport.json(plain.body()).path("id").asText()).isNotBlank();
    }

    @Test
    void anErrorInsideAStreamCarriesTheStatusItWouldHaveHadBeforeTheStream() throws IOException {
        HttpResponse<String> sse = ItSupport.post(gateway, "/v1beta/models/gm-midfail:streamGenerateContent?alt=sse",
                headers(), CONTENTS);
        HttpResponse<String> chat = ItSupport.post(gateway, "/v1/chat/completions", headers(),
                "{\"model\":\"gm-midfail\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

        JsonNode partsError = ItSupport.sseData(sse.body()).stream().map(ItSupport::json)
                .filter(n -> n.has("error")).findFirst().orElseThrow().path("error");
        assertThat(partsError.path("code").asInt()).as("a stream cut short is what a failed provider is: 503").isEqualTo(503);
        assertThat(partsError.path("status").asText()).isEqualTo("UNAVAILABLE");
        JsonNode chatError = ItSupport.sseData(chat.body()).stream().filter(d -> !d.equals("[DONE]")).map(ItSupport::json)
                .filter(n -> n.has("error")).findFirst().orElseThrow().path("error");
        assertThat(chatError.path("code").asText()).isEqualTo("503");
    }
}
