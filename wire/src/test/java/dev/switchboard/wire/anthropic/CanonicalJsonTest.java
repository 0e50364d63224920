package dev.switchboard.wire.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.CacheMarker;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.MediaSource;
import dev.switchboard.model.Message;
import dev.switchboard.model.Role;
import dev.switchboard.model.Signature;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.ToolChoice;
import dev.switchboard.model.Usage;
import dev.switchboard.wire.Json;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The golden files are only as good as the codec: every shape must survive a write and a read. */
class CanonicalJsonTest {

    @Test
    void requestWithEveryBlockKindRoundTrips() {
        ChatRequest request = ChatRequest.builder("m")
                .system(List.of(new ContentBlock.Text("sys", Optional.of(CacheMarker.ONE_HOUR), Optional.empty())))
                .messages(List.of(
                        new Message(Role.USER, List.of(
                                new ContentBlock.Image(new MediaSource.Base64("image/png", "AAAA"), Optional.empty(), Optional.empty()),
                                new ContentBlock.Document(new MediaSource.PlainText("doc"), Optional.of("t"), Optional.empty()))),
                        new Message(Role.ASSISTANT, List.of(
                                new ContentBlock.Thinking("hmm", Optional.of(new Signature("anthropic", "sig"))),
                                new ContentBlock.RedactedThinking("xyz", "anthropic"),
                                ContentBlock.ToolCall.of("t1", "f", "{}"),
                                new ContentBlock.Opaque("anthropic", Json.parse("{\"type\":\"server_tool_use\"}")))),
                        new Message(Role.USER, List.of(new ContentBlock.ToolResult("t1", Optional.of("f"),
                                List.of(ContentBlock.Text.of("ok")), true, Optional.empty())))))
                .toolChoice(new ToolChoice.Named("f"))
                .maxTokens(10)
                .build();

        JsonNode tree = CanonicalJson.tree(request);

        assertThat(CanonicalJson.read(tree, ChatRequest.class)).isEqualTo(request);
        assertThat(tree.at("/messages/1/content/0/kind").asText()).isEqualTo("Thinking");
        assertThat(tree.at("/toolChoice/kind").asText()).isEqualTo("Named");
    }

    @Test
    void streamEventsRoundTrip() {
        List<StreamEvent> events = List.of(
                new StreamEvent.MessageStart("id", "m", Usage.of(1, 0)),
                new StreamEvent.BlockStart(0, ContentBlock.Text.of("")),
                new StreamEvent.BlockDelta(0, new StreamEvent.Delta.TextDelta("hi")),
                new StreamEvent.BlockDelta(0, new StreamEvent.Delta.SignatureDelta(new Signature("anthropic", "s"))),
                new StreamEvent.BlockStop(0),
                new StreamEvent.MessageDelta(StopReason.END_TURN, Optional.empty(), Usage.of(1, 2)),
                new StreamEvent.MessageStop(),
                new StreamEvent.StreamError(GatewayError.internal("x")));

        JsonNode tree = CanonicalJson.events(events);

        assertThat(CanonicalJson.read(tree, CanonicalJson.EVENTS)).isEqualTo(events);
        assertThat(tree.get(6).get("kind").asText()).isEqualTo("MessageStop");
    }
}
