package dev.switchboard.wire.openai;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.Signature;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.StreamEvent.Delta;
import dev.switchboard.model.Usage;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.sse.SseEvent;
import dev.switchboard.wire.testing.Golden;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OpenAiClientStreamWriterTest {
    private static final StreamEvent START = new StreamEvent.MessageStart("id1", "m", Usage.of(10, 0));

    private static List<JsonNode> chunks(String sse) {
        return Golden.events(sse).stream().filter(e -> !e.isDone()).map(e -> Json.parse(e.data())).toList();
    }

    /** The streamed chunks are the bytes a tree of the same chunk serialises to, whatever the text holds. */
    @Test
    void streamedChunksAreTheBytesOfTheChunkTree() {
        String tricky = "line one\nline \"two\"\r\n\ttab \\ back \u0001 é 中文 🚀 </script>";
        OpenAiClientStreamWriter w = new OpenAiClientStreamWriter(1700000000L);
        String start = w.write(new StreamEvent.MessageStart("chatcmpl-1", "gpt-x", Usage.EMPTY));
        w.write(new StreamEvent.BlockStart(0, new ContentBlock.Thinking("", Optional.empty())));
        String thinking = w.write(new StreamEvent.BlockDelta(0, new Delta.ThinkingDelta(tricky)));
        w.write(new StreamEvent.BlockStart(1, ContentBlock.Text.of("")));
        String text = w.write(new StreamEvent.BlockDelta(1, new Delta.TextDelta(tricky)));

        assertThat(start).isEqualTo(frame(delta("role", "assistant", "content", "")));
        assertThat(thinking).isEqualTo(frame(delta("reasoning_content", tricky, "reasoning", tricky)));
        assertThat(text).isEqualTo(frame(delta("content", tricky, null, null)));
    }

    private static String frame(com.fasterxml.jackson.databind.node.ObjectNode delta) {
        com.fasterxml.jackson.databind.node.ObjectNode c = Json.object();
        c.put("id", "chatcmpl-1");
        c.put("object", "chat.completion.chunk");
        c.put("created", 1700000000L);
        c.put("model", "gpt-x");
        com.fasterxml.jackson.databind.node.ObjectNode choice = c.putArray("choices").addObject();
        choice.put("index", 0);
        choice.set("delta", delta);
        choice.putNull("logprobs");
        choice.putNull("finish_reason");
        return dev.switchboard.wire.sse.SseFrames.data(Json.write(c));
    }

    private static com.fasterxml.jackson.databind.node.ObjectNode delta(String f1, String v1, String f2, String v2) {
        com.fasterxml.jackson.databind.node.ObjectNode d = Json.object();
        d.put(f1, v1);
        if (f2 != null) {
            d.put(f2, v2);
        }
        return d;
    }

    @Test
    void nothingIsWrittenAfterDone() {
        OpenAiClientStreamWriter w = new OpenAiClientStreamWriter(5);
        w.write(START);
        assertThat(w.write(new StreamEvent.MessageStop())).endsWith("data: [DONE]\n\n");
        assertThat(w.finished()).isTrue();
        assertThat(w.write(new StreamEvent.BlockStart(0, ContentBlock.Text.of("late")))).isEmpty();
        assertThat(w.write(new StreamEvent.StreamError(GatewayError.internal("x")))).isEmpty();
        assertThat(w.write(new StreamEvent.MessageStop())).isEmpty();
    }

    @Test
    void errorAfterStartEndsWithAnErrorChunkCarryingUsageThenDone() {
        OpenAiClientStreamWriter w = new OpenAiClientStreamWriter(5);
        w.write(START);
        String out = w.write(new StreamEvent.StreamError(GatewayError.upstreamUnavailable("all providers failed")));
        List<SseEvent> events = Golden.events(out);
        assertThat(events).hasSize(2);
        assertThat(events.get(1).isDone()).isTrue();
        JsonNode c = Json.parse(events.get(0).data());
        assertThat(c.path("error").path("code").asText()).isEqualTo("503");
        assertThat(c.path("error").path("type").asText()).isEqualTo("api_error");
        assertThat(c.path("error").path("param").isNull()).isTrue();
        assertThat(c.path("usage").path("prompt_tokens").asLong()).isEqualTo(10);
        assertThat(c.path("id").asText()).isEqualTo("id1");
    }

    @Test
    void eventsBeforeMessageStartStillGiveAWellFormedStream() {
        OpenAiClientStreamWriter w = new OpenAiClientStreamWriter(5);
        List<JsonNode> c = chunks(w.write(new StreamEvent.StreamError(GatewayError.internal("boom"))));
        assertThat(c.get(0).path("choices").path(0).path("delta").path("role").asText()).isEqualTo("assistant");
        assertThat(c.get(1).has("error")).isTrue();
    }

    @Test
    void toolIndexesCountToolCallsOnlyWhateverTheBlockIndex() {
        OpenAiClientStreamWriter w = new OpenAiClientStreamWriter(5);
        StringBuilder sse = new StringBuilder(w.write(START));
        sse.append(w.write(new StreamEvent.BlockStart(0, ContentBlock.Thinking.of("hm"))));
        sse.append(w.write(new StreamEvent.BlockStart(1, ContentBlock.Text.of("t"))));
        sse.append(w.write(new StreamEvent.BlockStart(2, ContentBlock.ToolCall.of("a", "f", ""))));
        sse.append(w.write(new StreamEvent.BlockStart(3, ContentBlock.Text.of(""))));
        sse.append(w.write(new StreamEvent.BlockStart(4, ContentBlock.ToolCall.of("b", "g", ""))));
        sse.append(w.write(new StreamEvent.BlockDelta(4, new Delta.ArgumentsDelta("{}"))));
        sse.append(w.write(new StreamEvent.BlockDelta(2, new Delta.ArgumentsDelta("[]"))));
        List<Integer> indexes = chunks(sse.toString()).stream()
                .flatMap(c -> java.util.stream.StreamSupport.stream(
                        c.path("choices").path(0).path("delta").path("tool_calls").spliterator(), false))
                .map(tc -> tc.path("index").asInt()).toList();
        assertThat(indexes).containsExactly(0, 1, 1, 0);
    }

    @Test
    void signaturesOfThinkingGoToReasoningDetailsAndGeminiToolSignaturesToExtraContent() {
        OpenAiClientStreamWriter w = new OpenAiClientStreamWriter(5);
        StringBuilder sse = new StringBuilder(w.write(START));
        sse.append(w.write(new StreamEvent.BlockStart(0, ContentBlock.Thinking.of(""))));
        sse.append(w.write(new StreamEvent.BlockDelta(0,
                new Delta.SignatureDelta(new Signature("anthropic", "sig0")))));
        sse.append(w.write(new StreamEvent.BlockStart(1, ContentBlock.ToolCall.of("a", "f", ""))));
        sse.append(w.write(new StreamEvent.BlockDelta(1, new Delta.SignatureDelta(new Signature("gemini", "gs")))));
        sse.append(w.write(new StreamEvent.BlockStart(2, ContentBlock.Text.of(""))));
        String textSig = w.write(new StreamEvent.BlockDelta(2, new Delta.SignatureDelta(new Signature("gemini", "t"))));
        assertThat(textSig).as("a text signature has no chat-completions field").isEmpty();
        List<JsonNode> c = chunks(sse.toString());
        JsonNode detail = c.get(1).path("choices").path(0).path("delta").path("reasoning_details").path(0);
        assertThat(detail.path("signature").asText()).isEqualTo("sig0");
        assertThat(detail.path("format").asText()).isEqualTo("anthropic");
        assertThat(detail.path("index").asInt()).isZero();
        JsonNode tc = c.get(3).path("choices").path(0).path("delta").path("tool_calls").path(0);
        assertThat(tc.path("index").asInt()).isZero();
        assertThat(tc.path("extra_content").path("google").path("thought_signature").asText()).isEqualTo("gs");
    }

    @Test
    void finalChunkUsesTheLastStopReasonAndMergedUsage() {
        OpenAiClientStreamWriter w = new OpenAiClientStreamWriter(5);
        w.write(START);
        w.write(new StreamEvent.MessageDelta(StopReason.CONTEXT_WINDOW_EXCEEDED, Optional.empty(),
                new Usage(0, 7, 3, 0, 0, 0, Usage.Provenance.REPORTED)));
        JsonNode last = chunks(w.write(new StreamEvent.MessageStop())).get(0);
        assertThat(last.path("choices").path(0).path("finish_reason").asText()).isEqualTo("length");
        assertThat(last.path("usage").path("prompt_tokens").asLong()).isEqualTo(10);
        assertThat(last.path("usage").path("completion_tokens").asLong()).isEqualTo(7);
        assertThat(last.path("usage").path("completion_tokens_details").path("reasoning_tokens").asLong()).isEqualTo(3);
    }

    @Test
    void bytesAreTheUtf8OfTheText() {
        OpenAiClientStreamWriter a = new OpenAiClientStreamWriter(5);
        OpenAiClientStreamWriter b = new OpenAiClientStreamWriter(5);
        a.write(START);
        b.write(START);
        StreamEvent e = new StreamEvent.BlockStart(0, ContentBlock.Text.of("ünïcødé"));
        assertThat(new String(a.writeBytes(e), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(b.write(e));
    }
}
