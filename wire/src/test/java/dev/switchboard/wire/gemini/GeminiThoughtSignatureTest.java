package dev.switchboard.wire.gemini;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.Message;
import dev.switchboard.model.Role;
import dev.switchboard.model.Signature;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.wire.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The "Done when": a Gemini thoughtSignature reaches Google on the same part, unchanged. */
class GeminiThoughtSignatureTest {
    private static final String SIGNATURE = "CiQBcsjafJ3h0Zb7Sig+/1FzQXk=";

    @Test
    void signatureFromAClientReachesTheUpstreamOnTheSamePartUnchanged() {
        JsonNode body = Json.parse("""
                {"contents":[
                  {"role":"user","parts":[{"text":"Weather?"}]},
                  {"role":"model","parts":[
                    {"text":"thinking...","thought":true},
                    {"text":"Let me look."},
                    {"functionCall":{"name":"get_weather","args":{"city":"Oslo"}},"thoughtSignature":"%s"},
                    {"functionCall":{"name":"get_weather","args":{"city":"Paris"}}}]},
                  {"role":"user","parts":[
                    {"functionResponse":{"name":"get_weather","response":{"output":"4C"}}},
                    {"functionResponse":{"name":"get_weather","response":{"output":"18C"}}}]}]}
                """.formatted(SIGNATURE));

        JsonNode modelTurn = Gemini.toUpstream(Gemini.fromClient("gemini-3-pro", body)).get("contents").get(1);

        assertThat(modelTurn.get("role").asText()).isEqualTo("model");
        JsonNode parts = modelTurn.get("parts");
        assertThat(parts).hasSize(3); // the unsigned thought is not needed by Google and not sent
        assertThat(parts.get(0).has("thoughtSignature")).isFalse();
        assertThat(parts.get(1).at("/functionCall/args/city").asText()).isEqualTo("Oslo");
        assertThat(parts.get(1).get("thoughtSignature").asText()).isEqualTo(SIGNATURE);
        assertThat(parts.get(2).has("thoughtSignature")).as("only the first parallel call is signed").isFalse();
    }

    @Test
    void signatureFromTheUpstreamReachesTheClientAndComesBack() {
        JsonNode upstream = Json.parse("""
                {"candidates":[{"content":{"role":"model","parts":[
                  {"text":"plan","thought":true},
                  {"functionCall":{"name":"f","args":{}},"thoughtSignature":"%s"}]},"finishReason":"STOP"}],
                 "responseId":"r1"}
                """.formatted(SIGNATURE));

        ChatResponse response = Gemini.fromUpstream(upstream);
        JsonNode clientPart = Gemini.toClient(response, "m").at("/candidates/0/content/parts/1");
        assertThat(clientPart.get("thoughtSignature").asText()).isEqualTo(SIGNATURE);
        assertThat(clientPart.at("/functionCall/name").asText()).isEqualTo("f");

        // The client sends the answer back as history; the signature returns to Google on the call.
        ChatRequest next = ChatRequest.builder("m")
                .addMessage(Message.user("go"))
                .addMessage(new Message(Role.ASSISTANT, response.content()))
                .build();
        JsonNode sent = Gemini.toUpstream(next).at("/contents/1/parts");
        assertThat(sent).as("the unsigned thought summary is not sent back").hasSize(1);
        assertThat(sent.get(0).get("thoughtSignature").asText()).isEqualTo(SIGNATURE);
        assertThat(sent.get(0).at("/functionCall/id").asText()).isEqualTo("call_r1_0");
    }

    @Test
    void signaturesOfOtherOriginsAreNeverSentAndTheirCallsGetThePlaceholder() {
        ChatRequest r = ChatRequest.builder("m")
                .addMessage(Message.user("go"))
                .addMessage(new Message(Role.ASSISTANT, List.of(
                        new ContentBlock.Thinking("reason", Optional.of(new Signature("anthropic", "EqQB"))),
                        new ContentBlock.ToolCall("toolu_1", "f", "{}", Optional.of(new Signature("openai", "enc"))))))
                .build();

        String sent = Json.write(Gemini.toUpstream(r));

        assertThat(sent).doesNotContain("EqQB").doesNotContain("enc").doesNotContain("reason");
        assertThat(Gemini.toUpstream(r).at("/contents/1/parts/0/thoughtSignature").asText())
                .isEqualTo(Gemini.SKIP_SIGNATURE_PLACEHOLDER);
    }

    @Test
    void streamedSignatureReachesTheStreamingClientOnTheCallPart() {
        String sse = "data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"f\",\"args\":{\"a\":1}},"
                + "\"thoughtSignature\":\"" + SIGNATURE + "\"}]},\"finishReason\":\"STOP\"}],\"responseId\":\"r\"}\n\n";
        List<StreamEvent> events = GeminiFixtures.parseStream(sse.getBytes(StandardCharsets.UTF_8), 3);

        String out = GeminiFixtures.render(events, GeminiClientStreamWriter.Mode.SSE);

        JsonNode part = Json.parse(out.lines().filter(l -> l.contains("functionCall")).findFirst().orElseThrow()
                .substring("data: ".length())).at("/candidates/0/content/parts/0");
        assertThat(part.get("thoughtSignature").asText()).isEqualTo(SIGNATURE);
        assertThat(part.at("/functionCall/args/a").asInt()).isEqualTo(1);
        assertThat(GeminiFixtures.accumulate(events).content().get(0))
                .isEqualTo(new ContentBlock.ToolCall("call_r_0", "f", "{\"a\":1}",
                        Optional.of(new Signature("gemini", SIGNATURE))));
    }
}
