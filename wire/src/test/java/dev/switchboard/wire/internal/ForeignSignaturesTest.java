package dev.switchboard.wire.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.Signature;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.Usage;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.anthropic.Anthropic;
import dev.switchboard.wire.gemini.Gemini;
import dev.switchboard.wire.responses.Responses;
import dev.switchboard.wire.responses.ResponsesUpstreamOptions;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A trace signed by one kind of upstream survives a client format made for another vendor and returns to
 * the upstream that signed it, and to no other: encrypted reasoning of a Responses upstream through a
 * messages client and through a content-parts client.
 */
class ForeignSignaturesTest {
    private static final Signature OPENAI_ENCRYPTED = new Signature(Responses.FORMAT, "gAAAAABp+/enc==");

    private static ChatResponse answer() {
        return new ChatResponse("id", "m", List.of(new ContentBlock.Thinking("I thought.", Optional.of(OPENAI_ENCRYPTED)),
                ContentBlock.Text.of("Hi."), new ContentBlock.RedactedThinking("opaque-state", "openai")),
                StopReason.END_TURN, Optional.empty(), Usage.of(1, 1));
    }

    @Test
    void encodesAsStandardBase64AndDecodesOnlyItsOwnShape() {
        String encoded = ForeignSignatures.encode(OPENAI_ENCRYPTED);
        assertThat(Base64.getDecoder().decode(encoded)).isNotEmpty();
        assertThat(Base64.getEncoder().encodeToString(Base64.getDecoder().decode(encoded))).isEqualTo(encoded);
        assertThat(ForeignSignatures.decode(encoded)).contains(OPENAI_ENCRYPTED);
        assertThat(ForeignSignatures.decode("EqQBCkgIARABGAIiQL")).isEmpty();
        assertThat(ForeignSignatures.decode("c2IxOg==")).isEmpty(); // "sb1:" without an origin
        assertThat(ForeignSignatures.decode("c2Ix!!!!")).isEmpty();
        assertThat(ForeignSignatures.fromClient("EqQB", Anthropic.FORMAT)).isEqualTo(new Signature(Anthropic.FORMAT, "EqQB"));
    }

    @Test
    void throughAMessagesClientTheTraceReturnsToAResponsesUpstreamAndNeverToAnthropic() {
        ObjectNode shown = Anthropic.toClient(answer());
        ArrayNode content = (ArrayNode) shown.get("content");
        assertThat(content.toString()).doesNotContain("gAAAAABp").doesNotContain("opaque-state");

        ObjectNode next = Json.object().put("model", "m").put("max_tokens", 100);
        ArrayNode messages = next.putArray("messages");
        messages.addObject().put("role", "user").put("content", "Hello");
        messages.addObject().put("role", "assistant").set("content", content);
        messages.addObject().put("role", "user").put("content", "Again");
        ChatRequest back = Anthropic.fromClient(next);

        assertThat(back.messages().get(1).content()).containsExactly(
                new ContentBlock.Thinking("I thought.", Optional.of(OPENAI_ENCRYPTED)), ContentBlock.Text.of("Hi."),
                new ContentBlock.RedactedThinking("opaque-state", "openai"));
        assertThat(reasoningItems(back)).containsExactly(OPENAI_ENCRYPTED.value());
        assertThat(Anthropic.toUpstream(back, "claude", false, 100).toString()).doesNotContain("thinking")
                .doesNotContain("gAAAAABp");
    }

    @Test
    void throughAContentPartsClientTheTraceReturnsToAResponsesUpstreamAndNeverToGemini() {
        ObjectNode shown = Gemini.toClient(answer(), "m");
        JsonNode parts = shown.path("candidates").path(0).path("content").path("parts");

        ObjectNode next = Json.object();
        ArrayNode contents = next.putArray("contents");
        contents.addObject().put("role", "user").putArray("parts").addObject().put("text", "Hello");
        contents.addObject().put("role", "model").set("parts", parts);
        contents.addObject().put("role", "user").putArray("parts").addObject().put("text", "Again");
        ChatRequest back = Gemini.fromClient("m", next);

        assertThat(back.messages().get(1).content()).contains(new ContentBlock.Thinking("I thought.", Optional.of(OPENAI_ENCRYPTED)));
        assertThat(reasoningItems(back)).containsExactly(OPENAI_ENCRYPTED.value());
        assertThat(Gemini.toUpstream(back).toString()).doesNotContain("I thought.")
                .doesNotContain(ForeignSignatures.encode(OPENAI_ENCRYPTED));
    }

    private static List<String> reasoningItems(ChatRequest request) {
        JsonNode input = Responses.toUpstream(request, "gpt-5", false, new ResponsesUpstreamOptions(true, false, false)).path("input");
        return input.findValues("encrypted_content").stream().map(JsonNode::asText).toList();
    }

    @Test
    void aMessageOfOneProvidersTurnKeepsItsOwnSignatureAsItIs() {
        ChatResponse claude = new ChatResponse("id", "m", List.of(new ContentBlock.Thinking("t",
                Optional.of(new Signature(Anthropic.FORMAT, "EqQBsig")))), StopReason.END_TURN, Optional.empty(), Usage.of(1, 1));
        assertThat(Anthropic.toClient(claude).path("content").path(0).path("signature").asText()).isEqualTo("EqQBsig");
    }
}
