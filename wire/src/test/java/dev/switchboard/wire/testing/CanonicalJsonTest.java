package dev.switchboard.wire.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.model.CacheMarker;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.MediaSource;
import dev.switchboard.model.Message;
import dev.switchboard.model.Passthrough;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.ResponseFormat;
import dev.switchboard.model.Role;
import dev.switchboard.model.Signature;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.ToolChoice;
import dev.switchboard.model.ToolSpec;
import dev.switchboard.model.Usage;
import dev.switchboard.wire.Json;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** The fixture codec must be lossless, or golden comparisons would hide differences. */
class CanonicalJsonTest {

    @Test
    void requestRoundTrips() {
        ChatRequest r = ChatRequest.builder("m")
                .system(List.of(new ContentBlock.Text("sys", Optional.of(CacheMarker.ONE_HOUR), Optional.empty())))
                .messages(List.of(
                        new Message(Role.USER, List.of(ContentBlock.Text.of("hi"),
                                ContentBlock.Image.of(new MediaSource.Base64("image/png", "AAA")),
                                new ContentBlock.Document(new MediaSource.FileRef("f", "application/pdf"),
                                        Optional.of("t"), Optional.empty()),
                                new ContentBlock.Document(new MediaSource.PlainText("doc"), Optional.of("t"), Optional.empty()),
                                ContentBlock.Image.of(new MediaSource.Url("https://example.com/a.png")),
                                new ContentBlock.Opaque("openai", Json.parse("{\"type\":\"input_audio\"}")))),
                        new Message(Role.ASSISTANT, List.of(
                                new ContentBlock.Thinking("", Optional.of(new Signature("anthropic", "s"))),
                                new ContentBlock.RedactedThinking("d", "anthropic"),
                                new ContentBlock.ToolCall("c", "f", "", Optional.empty()))),
                        new Message(Role.USER, List.of(new ContentBlock.ToolResult("c", Optional.of("f"),
                                List.of(ContentBlock.Text.of("")), false, Optional.empty()),
                                new ContentBlock.ToolResult("c2", Optional.empty(), List.of(ContentBlock.Text.of("failed")),
                                        true, Optional.empty())))))
                .tools(List.of(new ToolSpec("f", Optional.empty(), Json.parse("{\"type\":\"object\"}"),
                        Optional.of(true), Optional.empty())))
                .toolChoice(new ToolChoice.Named("f"))
                .maxTokens(OptionalInt.of(5))
                .reasoning(new Reasoning(Optional.of(Reasoning.Effort.HIGH), Optional.of(Reasoning.Mode.ON),
                        OptionalInt.of(100), Reasoning.Format.INLINE, true, Optional.empty()))
                .responseFormat(new ResponseFormat.JsonSchema("n", Optional.empty(), Json.object(), true))
                .metadata(Map.of("b", "2", "a", "1"))
                .passthrough(new Passthrough("openai", Map.of("n", Json.parse("1"))))
                .build();
        assertThat(CanonicalJson.request(CanonicalJson.tree(r))).isEqualTo(r);
        assertThat(CanonicalJson.request(CanonicalJson.tree(ChatRequest.builder("x").build())))
                .isEqualTo(ChatRequest.builder("x").build());
    }

    @Test
    void responseEventsAndErrorsRoundTrip() {
        ChatResponse resp = new ChatResponse("id", "m", List.of(ContentBlock.Text.of("a")), StopReason.STOP_SEQUENCE,
                Optional.of("END"), new Usage(1, 2, 3, 4, 5, 6, Usage.Provenance.ESTIMATED));
        assertThat(CanonicalJson.response(CanonicalJson.tree(resp))).isEqualTo(resp);
        List<StreamEvent> events = List.of(new StreamEvent.MessageStart("i", "m", Usage.EMPTY),
                new StreamEvent.BlockStart(0, ContentBlock.Thinking.of("")),
                new StreamEvent.BlockDelta(0, new StreamEvent.Delta.SignatureDelta(new Signature("o", "v"))),
                new StreamEvent.BlockStop(0),
                new StreamEvent.BlockDelta(1, new StreamEvent.Delta.TextDelta("hi")),
                new StreamEvent.BlockDelta(2, new StreamEvent.Delta.ArgumentsDelta("{\"a\":")),
                new StreamEvent.BlockDelta(3, new StreamEvent.Delta.ThinkingDelta("hmm")),
                new StreamEvent.MessageDelta(StopReason.END_TURN, Optional.empty(), Usage.of(1, 2)),
                new StreamEvent.MessageStop(),
                new StreamEvent.StreamError(GatewayError.invalid("p", "m")));
        for (StreamEvent e : events) {
            assertThat(CanonicalJson.event(Json.parse(CanonicalJson.compact(e)))).isEqualTo(e);
        }
    }
}
