package dev.switchboard.wire.gemini;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.Usage;
import dev.switchboard.wire.Json;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GeminiClientStreamWriterTest {
    private static final StreamEvent START = new StreamEvent.MessageStart("id1", "upstream-name", Usage.of(5, 0));

    @Test
    void streamedTextPartsAreTheBytesOfTheChunkTreeInBothFramings() {
        String tricky = "line one\nline \"two\"\r\n\ttab \\ back \u0001 é 中文 🚀 </script>";
        for (GeminiClientStreamWriter.Mode mode : GeminiClientStreamWriter.Mode.values()) {
            GeminiClientStreamWriter w = new GeminiClientStreamWriter(mode, "m");
            String start = w.write(START);
            w.write(new StreamEvent.BlockStart(0, new ContentBlock.Thinking("", Optional.empty())));
            String thought = w.write(new StreamEvent.BlockDelta(0, new StreamEvent.Delta.ThinkingDelta(tricky)));
            w.write(new StreamEvent.BlockStart(1, ContentBlock.Text.of("")));
            String text = w.write(new StreamEvent.BlockDelta(1, new StreamEvent.Delta.TextDelta(tricky)));

            String thoughtJson = Json.write(GeminiClientResponseWriter.envelope(Json.array().add(
                    GeminiParts.thought(tricky, Optional.empty())), Optional.empty(), Optional.empty(), "m", "id1"));
            String textJson = Json.write(GeminiClientResponseWriter.envelope(Json.array().add(
                    GeminiParts.text(tricky, Optional.empty())), Optional.empty(), Optional.empty(), "m", "id1"));
            if (mode == GeminiClientStreamWriter.Mode.SSE) {
                assertThat(start + thought).isEqualTo("data: " + thoughtJson + "\n\n");
                assertThat(text).isEqualTo("data: " + textJson + "\n\n");
            } else {
                assertThat(start + thought).isEqualTo("[" + thoughtJson);
                assertThat(text).isEqualTo(",\n" + textJson);
            }
        }
    }

    @Test
    void theArrayIsWrittenIncrementallyAndClosedAtTheEnd() {
        GeminiClientStreamWriter w = new GeminiClientStreamWriter(GeminiClientStreamWriter.Mode.JSON_ARRAY, "m");

        assertThat(w.write(START)).isEqualTo("[");
        assertThat(w.write(new StreamEvent.BlockStart(0, ContentBlock.Text.of("")))).isEmpty();
        String first = w.write(new StreamEvent.BlockDelta(0, new StreamEvent.Delta.TextDelta("Hi")));
        String second = w.write(new StreamEvent.BlockDelta(0, new StreamEvent.Delta.TextDelta("!")));
        assertThat(first).startsWith("{").doesNotContain(",\n");
        assertThat(second).startsWith(",\n{");
        w.write(new StreamEvent.BlockStop(0));
        w.write(new StreamEvent.MessageDelta(StopReason.END_TURN, Optional.empty(), Usage.of(5, 2)));
        String last = w.write(new StreamEvent.MessageStop());
        assertThat(last).endsWith("]");
        assertThat(w.finished()).isTrue();
        assertThat(w.write(new StreamEvent.MessageStop())).isEmpty();
        assertThat(w.finish()).isEmpty();

        JsonNode array = Json.parse("[" + first + second + last);
        assertThat(array).hasSize(3);
        assertThat(array.get(2).at("/candidates/0/finishReason").asText()).isEqualTo("STOP");
        assertThat(array.get(2).at("/usageMetadata/totalTokenCount").asInt()).isEqualTo(7);
        assertThat(array.get(0).get("modelVersion").asText()).as("the requested model, not the upstream's").isEqualTo("m");
    }

    @Test
    void finishKeepsAnUnendedArrayWellFormed() {
        GeminiClientStreamWriter untouched = new GeminiClientStreamWriter(GeminiClientStreamWriter.Mode.JSON_ARRAY, "m");
        assertThat(untouched.finish()).isEqualTo("[]");

        GeminiClientStreamWriter started = new GeminiClientStreamWriter(GeminiClientStreamWriter.Mode.JSON_ARRAY, "m");
        String body = started.write(START) + started.write(new StreamEvent.BlockStart(0, ContentBlock.Text.of("x")))
                + started.finish();
        assertThat(Json.parse(body)).hasSize(1);
    }

    @Test
    void anErrorEndsTheStreamWithAGoogleStyleElement() {
        GeminiClientStreamWriter w = new GeminiClientStreamWriter(GeminiClientStreamWriter.Mode.SSE, "m");
        w.write(START);

        String out = w.write(new StreamEvent.StreamError(GatewayError.upstreamUnavailable("all providers failed")));

        assertThat(out).startsWith("data: ").endsWith("\n\n");
        JsonNode error = Json.parse(out.substring(6).strip()).get("error");
        assertThat(error.get("status").asText()).isEqualTo("UNAVAILABLE");
        assertThat(error.get("code").asInt()).isEqualTo(503);
        assertThat(error.get("message").asText()).isEqualTo("all providers failed");
        assertThat(w.finished()).isTrue();
        assertThat(w.write(new StreamEvent.MessageStop())).isEmpty();
        assertThat(w.contentType()).isEqualTo("text/event-stream");
    }

    @Test
    void aToolCallIsSentWholeWhenItsBlockStops() {
        GeminiClientStreamWriter w = new GeminiClientStreamWriter(GeminiClientStreamWriter.Mode.SSE, "m");
        w.write(START);
        assertThat(w.write(new StreamEvent.BlockStart(0, ContentBlock.ToolCall.of("c1", "f", "")))).isEmpty();
        assertThat(w.write(new StreamEvent.BlockDelta(0, new StreamEvent.Delta.ArgumentsDelta("{\"a\":")))).isEmpty();
        assertThat(w.write(new StreamEvent.BlockDelta(0, new StreamEvent.Delta.ArgumentsDelta("1}")))).isEmpty();

        String out = w.write(new StreamEvent.BlockStop(0));

        JsonNode call = Json.parse(out.substring(6).strip()).at("/candidates/0/content/parts/0/functionCall");
        assertThat(call).isEqualTo(Json.parse("{\"name\":\"f\",\"args\":{\"a\":1},\"id\":\"c1\"}"));
    }
}
