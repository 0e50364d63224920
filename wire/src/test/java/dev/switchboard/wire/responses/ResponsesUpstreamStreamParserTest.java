package dev.switchboard.wire.responses;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.StreamAccumulator;
import dev.switchboard.model.StreamEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What the recorded fixtures do not show: servers that skip delta events, noise a stream may carry, and
 * stop strings cut across deltas.
 */
class ResponsesUpstreamStreamParserTest {

    private static List<StreamEvent> feed(ResponsesUpstreamStreamParser parser, String... payloads) {
        List<StreamEvent> out = new ArrayList<>();
        for (String p : payloads) {
            out.addAll(parser.onEvent(Optional.empty(), p));
        }
        out.addAll(parser.onEnd());
        return out;
    }

    private static StreamAccumulator accumulate(List<StreamEvent> events) {
        StreamAccumulator acc = new StreamAccumulator();
        events.forEach(acc::accept);
        return acc;
    }

    private static final String CREATED = "{\"type\":\"response.created\",\"response\":{\"id\":\"resp_1\",\"model\":\"m\"}}";
    private static final String COMPLETED = "{\"type\":\"response.completed\",\"response\":{\"status\":\"completed\","
            + "\"usage\":{\"input_tokens\":5,\"output_tokens\":7}}}";

    @Test
    void itemsGivenOnlyWholeAtTheirEndAreNotLost() {
        List<StreamEvent> events = feed(new ResponsesUpstreamStreamParser(List.of()), CREATED,
                "{\"type\":\"response.output_item.done\",\"output_index\":0,\"item\":{\"type\":\"reasoning\","
                        + "\"summary\":[{\"type\":\"summary_text\",\"text\":\"Thought.\"}],\"encrypted_content\":\"enc\"}}",
                "{\"type\":\"response.output_item.done\",\"output_index\":1,\"item\":{\"type\":\"message\",\"role\":\"assistant\","
                        + "\"content\":[{\"type\":\"output_text\",\"text\":\"Whole text.\"}]}}",
                "{\"type\":\"response.output_item.done\",\"output_index\":2,\"item\":{\"type\":\"function_call\","
                        + "\"call_id\":\"call_1\",\"name\":\"f\",\"arguments\":\"{\\\"a\\\":1}\"}}",
                COMPLETED);

        StreamAccumulator acc = accumulate(events);
        assertThat(acc.complete()).isTrue();
        assertThat(acc.response().content()).containsExactly(
                new ContentBlock.Thinking("Thought.", Optional.of(new dev.switchboard.model.Signature("responses", "enc"))),
                ContentBlock.Text.of("Whole text."), ContentBlock.ToolCall.of("call_1", "f", "{\"a\":1}"));
        assertThat(acc.response().stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(acc.usage().outputTokens()).isEqualTo(7);
    }

    @Test
    void aCustomCallIsWholeJsonArgumentsHoweverItsInputArrives() {
        // Input pieces with no .done event (the item's end closes the string), then a call given only whole.
        List<StreamEvent> events = feed(new ResponsesUpstreamStreamParser(List.of()), CREATED,
                "{\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"type\":\"custom_tool_call\","
                        + "\"call_id\":\"call_1\",\"name\":\"exec\",\"input\":\"\"}}",
                "{\"type\":\"response.custom_tool_call_input.delta\",\"output_index\":0,\"delta\":\"say(\\\"a\"}",
                "{\"type\":\"response.custom_tool_call_input.delta\",\"output_index\":0,\"delta\":\"\\\\b\\\")\\n\"}",
                "{\"type\":\"response.output_item.done\",\"output_index\":0,\"item\":{\"type\":\"custom_tool_call\","
                        + "\"call_id\":\"call_1\",\"name\":\"exec\",\"input\":\"say(\\\"a\\\\b\\\")\\n\"}}",
                "{\"type\":\"response.output_item.done\",\"output_index\":1,\"item\":{\"type\":\"custom_tool_call\","
                        + "\"call_id\":\"call_2\",\"name\":\"note\",\"input\":\"\"}}",
                COMPLETED);

        StreamAccumulator acc = accumulate(events);
        assertThat(acc.complete()).isTrue();
        assertThat(acc.response().content()).containsExactly(
                ContentBlock.ToolCall.of("call_1", "exec", "{\"input\":\"say(\\\"a\\\\b\\\")\\n\"}"),
                ContentBlock.ToolCall.of("call_2", "note", "{\"input\":\"\"}"));
        assertThat(acc.response().stopReason()).isEqualTo(StopReason.TOOL_USE);
    }

    @Test
    void noiseIsIgnoredAndABodyThatIsNotJsonIsARetryableFailure() {
        ResponsesUpstreamStreamParser parser = new ResponsesUpstreamStreamParser(List.of());
        assertThat(parser.onEvent(Optional.of("keepalive"), "{\"type\":\"keepalive\"}")).isEmpty();
        assertThat(parser.onEvent(Optional.empty(), "[DONE]")).isEmpty();
        assertThat(parser.onEnd()).as("a stream that never began is for the engine to call empty").isEmpty();

        List<StreamEvent> broken = new ResponsesUpstreamStreamParser(List.of()).onEvent(Optional.empty(), "<html>");
        assertThat(broken).singleElement().isInstanceOfSatisfying(StreamEvent.StreamError.class, e -> {
            assertThat(e.error().status()).isEqualTo(502);
            assertThat(e.error().retryable()).isTrue();
        });
    }

    @Test
    void anErrorEventBeforeAnyContentEndsTheStreamWithItsStatus() {
        List<StreamEvent> events = feed(new ResponsesUpstreamStreamParser(List.of()), CREATED,
                "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_exceeded\",\"code\":\"rate_limit_exceeded\","
                        + "\"message\":\"Slow down\"}}",
                "{\"type\":\"response.failed\",\"response\":{\"error\":{\"code\":\"server_error\",\"message\":\"x\"}}}");

        assertThat(events).hasSize(2);
        assertThat(events.getLast()).isInstanceOfSatisfying(StreamEvent.StreamError.class, e -> {
            assertThat(e.error().status()).isEqualTo(429);
            assertThat(e.error().message()).isEqualTo("Slow down");
        });
    }

    @Test
    void aStopStringSplitOverManyDeltasNeverReachesTheClient() {
        List<String> payloads = new ArrayList<>(List.of(CREATED));
        for (String piece : List.of("ab", "c", "S", "T", "O", "P", "tail")) {
            payloads.add("{\"type\":\"response.output_text.delta\",\"output_index\":0,\"content_index\":0,\"delta\":\"" + piece
                    + "\"}");
        }
        payloads.add(COMPLETED);
        List<StreamEvent> events = feed(new ResponsesUpstreamStreamParser(List.of("STOP", "cS")),
                payloads.toArray(String[]::new));

        StreamAccumulator acc = accumulate(events);
        assertThat(acc.response().text()).isEqualTo("ab");
        assertThat(acc.response().stopReason()).isEqualTo(StopReason.STOP_SEQUENCE);
        assertThat(acc.response().stopSequence()).contains("cS");
        assertThat(events).filteredOn(e -> e instanceof StreamEvent.BlockDelta d
                && d.delta() instanceof StreamEvent.Delta.TextDelta t && t.text().contains("c")).isEmpty();
    }

    @Test
    void textThatOnlyLooksLikeTheStartOfAStopStringIsReleasedAtTheEndOfItsBlock() {
        List<StreamEvent> events = feed(new ResponsesUpstreamStreamParser(List.of("ENDING")), CREATED,
                "{\"type\":\"response.content_part.added\",\"output_index\":0,\"content_index\":0,\"part\":{\"type\":\"output_text\"}}",
                "{\"type\":\"response.output_text.delta\",\"output_index\":0,\"content_index\":0,\"delta\":\"The END\"}",
                "{\"type\":\"response.content_part.done\",\"output_index\":0,\"content_index\":0}",
                COMPLETED);

        assertThat(accumulate(events).response().text()).isEqualTo("The END");
        assertThat(accumulate(events).response().stopReason()).isEqualTo(StopReason.END_TURN);
    }
}
