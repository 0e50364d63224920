package dev.switchboard.engine.context;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.Message;
import dev.switchboard.model.Role;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MiddleOutTest {
    /** 40 characters: 10 estimated tokens. */
    private static String ten(String tag) {
        return (tag + ":" + "x".repeat(40)).substring(0, 40);
    }

    private static Message user(String tag) {
        return Message.user(ten(tag));
    }

    private static Message assistant(String tag) {
        return Message.assistant(ten(tag));
    }

    private static Message call(String id) {
        return new Message(Role.ASSISTANT, List.of(ContentBlock.ToolCall.of(id, "lookup", "{\"q\":\"" + "y".repeat(20) + "\"}")));
    }

    private static Message result(String id) {
        return new Message(Role.USER, List.of(new ContentBlock.ToolResult(id, Optional.of("lookup"),
                List.of(ContentBlock.Text.of(ten("result " + id))), false, Optional.empty())));
    }

    private static List<String> tags(List<Message> messages) {
        List<String> out = new ArrayList<>();
        for (Message m : messages) {
            String text = m.text();
            if (!text.isEmpty()) {
                out.add(text.substring(0, text.indexOf(':')));
            } else if (m.content().getFirst() instanceof ContentBlock.ToolCall c) {
                out.add("call " + c.id());
            } else if (m.content().getFirst() instanceof ContentBlock.ToolResult r) {
                out.add("result " + r.callId());
            }
        }
        return out;
    }

    private static List<Message> conversation(int turns) {
        List<Message> out = new ArrayList<>();
        for (int i = 0; i < turns; i++) {
            out.add(i % 2 == 0 ? user("u" + i) : assistant("a" + i));
        }
        return out;
    }

    @Test
    void aConversationThatFitsIsUnchanged() {
        List<Message> messages = conversation(5);
        MiddleOut.Result r = MiddleOut.trim(messages, 50).orElseThrow();
        assertThat(r.messages()).isEqualTo(messages);
        assertThat(r.dropped()).isZero();
    }

    @Test
    void dropsFromTheMiddleKeepingTheFirstAndTheMostRecent() {
        // 9 messages of 10 tokens; a budget of 50 keeps 5
        MiddleOut.Result r = MiddleOut.trim(conversation(9), 50).orElseThrow();
        assertThat(tags(r.messages())).containsExactly("u0", "a1", "u2", "a7", "u8");
        assertThat(r.dropped()).isEqualTo(4);
    }

    @Test
    void dropsNoMoreThanNeeded() {
        MiddleOut.Result r = MiddleOut.trim(conversation(9), 80).orElseThrow();
        assertThat(r.messages()).hasSize(8);
        assertThat(tags(r.messages())).doesNotContain("u4").startsWith("u0").endsWith("u8");
    }

    @Test
    void aToolCallAndItsResultGoTogether() {
        List<Message> messages = List.of(user("u0"), assistant("a1"), user("u2"), call("c1"), result("c1"),
                assistant("a5"), user("u6"));
        // units: u0 | a1 | u2 | call+result | a5 | u6; 20 + 20 + 20 keeps ... the pair is never split
        for (long budget = 20; budget <= 80; budget++) {
            Optional<MiddleOut.Result> r = MiddleOut.trim(messages, budget);
            if (r.isEmpty()) {
                continue;
            }
            List<String> kept = tags(r.get().messages());
            assertThat(kept.contains("call c1")).as("budget %d: %s", budget, kept).isEqualTo(kept.contains("result c1"));
            assertThat(kept).first().isEqualTo("u0");
            assertThat(kept).last().isEqualTo("u6");
        }
        List<String> dropped = tags(MiddleOut.trim(messages, 40).orElseThrow().messages());
        assertThat(dropped).doesNotContain("call c1", "result c1");
    }

    @Test
    void everythingBetweenACallAndItsResultIsOneUnit() {
        List<Message> messages = List.of(user("u0"), call("c1"), assistant("note"), result("c1"), user("u4"));
        List<MiddleOut.Unit> units = MiddleOut.units(messages);
        assertThat(units).extracting(MiddleOut.Unit::from, MiddleOut.Unit::to)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0, 1), org.assertj.core.groups.Tuple.tuple(1, 4),
                        org.assertj.core.groups.Tuple.tuple(4, 5));
    }

    @Test
    void parallelCallsAnsweredInOneTurnStayWithThatTurn() {
        Message twoCalls = new Message(Role.ASSISTANT, List.of(ContentBlock.ToolCall.of("a", "f", "{}"),
                ContentBlock.ToolCall.of("b", "g", "{}")));
        Message twoResults = new Message(Role.USER, List.of(
                new ContentBlock.ToolResult("a", Optional.empty(), List.of(ContentBlock.Text.of("1")), false, Optional.empty()),
                new ContentBlock.ToolResult("b", Optional.empty(), List.of(ContentBlock.Text.of("2")), false, Optional.empty())));
        List<MiddleOut.Unit> units = MiddleOut.units(List.of(user("u0"), twoCalls, twoResults, user("u3")));
        assertThat(units).hasSize(3);
        assertThat(units.get(1).from()).isEqualTo(1);
        assertThat(units.get(1).to()).isEqualTo(3);
    }

    @Test
    void aPairAtTheEndIsTheMostRecentTurnAndIsKept() {
        List<Message> messages = List.of(user("u0"), assistant("a1"), user("u2"), assistant("a3"), call("c9"), result("c9"));
        // u0, a1, u2, a3: 10 tokens each; the pair: 9 + 10
        assertThat(tags(MiddleOut.trim(messages, 40).orElseThrow().messages()))
                .containsExactly("u0", "a1", "call c9", "result c9");
        assertThat(tags(MiddleOut.trim(messages, 29).orElseThrow().messages()))
                .containsExactly("u0", "call c9", "result c9");
        assertThat(MiddleOut.trim(messages, 28)).isEmpty();
    }

    @Test
    void emptyWhenTheFirstAndLastAloneDoNotFit() {
        assertThat(MiddleOut.trim(conversation(6), 19)).isEmpty();
        assertThat(MiddleOut.trim(conversation(1), 9)).isEmpty();
    }

    @Test
    void aSingleMessageThatFitsIsKept() {
        assertThat(MiddleOut.trim(conversation(1), 10).orElseThrow().messages()).hasSize(1);
    }
}
