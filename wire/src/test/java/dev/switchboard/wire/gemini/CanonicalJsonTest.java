package dev.switchboard.wire.gemini;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.Message;
import dev.switchboard.model.Role;
import dev.switchboard.model.Signature;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.ToolChoice;
import dev.switchboard.model.Usage;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CanonicalJsonTest {

    @Test
    void requestSurvivesARoundTrip() {
        ChatRequest r = ChatRequest.builder("m")
                .addMessage(Message.user("hi"))
                .addMessage(new Message(Role.ASSISTANT, List.of(
                        new ContentBlock.ToolCall("c1", "f", "{}", Optional.of(new Signature("gemini", "s"))))))
                .toolChoice(new ToolChoice.Named("f"))
                .maxTokens(5)
                .build();
        var json = CanonicalJson.tree(r);
        assertThat(CanonicalJson.request(json)).isEqualTo(r);
    }

    @Test
    void handWrittenInputMayLeaveOutEmptyCollectionsAndDefaults() {
        ChatRequest r = CanonicalJson.request(dev.switchboard.wire.Json.parse(
                "{\"model\":\"m\",\"messages\":[{\"role\":\"USER\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"}]}],"
                        + "\"toolChoice\":{\"type\":\"auto\"},\"sampling\":{},\"reasoning\":{\"format\":\"SEPARATE\"},"
                        + "\"responseFormat\":{\"type\":\"text\"},\"passthrough\":{\"format\":\"\"}}"));
        assertThat(r).isEqualTo(ChatRequest.builder("m").addMessage(Message.user("hi")).build());
    }

    @Test
    void eventsSurviveARoundTrip() {
        List<StreamEvent> events = List.of(new StreamEvent.MessageStart("id", "m", Usage.of(1, 2)),
                new StreamEvent.BlockStart(0, ContentBlock.Text.of("")),
                new StreamEvent.BlockDelta(0, new StreamEvent.Delta.TextDelta("x")),
                new StreamEvent.BlockStop(0), new StreamEvent.MessageStop());
        var json = CanonicalJson.eventsTree(events);
        assertThat(CanonicalJson.events(json)).isEqualTo(events);
    }
}
