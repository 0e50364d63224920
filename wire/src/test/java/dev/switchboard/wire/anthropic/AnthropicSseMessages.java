package dev.switchboard.wire.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.sse.SseEvent;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What an Anthropic SDK makes of a named-event stream: the final message (blocks rebuilt from their
 * deltas, {@code input_json_delta} parsed at the block's stop), and a check that the stream is shaped the
 * way the SDKs' accumulators need it. Test-only; written from , not from the production
 * writer, so that both cannot share a misunderstanding.
 */
final class AnthropicSseMessages {
    private AnthropicSseMessages() {
    }

    /** The message the stream describes; an {@code error} event adds {@code "error": {...}}. */
    static ObjectNode accumulate(List<SseEvent> events) {
        ObjectNode message = Json.object();
        Map<Integer, StringBuilder> inputs = new HashMap<>();
        for (SseEvent e : events) {
            JsonNode data = Json.parse(e.data());
            switch (data.path("type").asText()) {
                case "message_start" -> message.setAll((ObjectNode) data.get("message").deepCopy());
                case "content_block_start" -> {
                    ArrayNode content = message.withArray("content");
                    int index = data.get("index").asInt();
                    while (content.size() <= index) {
                        content.addNull();
                    }
                    content.set(index, data.get("content_block").deepCopy());
                }
                case "content_block_delta" -> {
                    int index = data.get("index").asInt();
                    ObjectNode block = (ObjectNode) message.withArray("content").get(index);
                    JsonNode d = data.get("delta");
                    switch (d.path("type").asText()) {
                        case "text_delta" -> block.put("text", block.path("text").asText() + d.get("text").asText());
                        case "thinking_delta" -> block.put("thinking", block.path("thinking").asText() + d.get("thinking").asText());
                        case "signature_delta" -> block.put("signature", d.get("signature").asText());
                        case "input_json_delta" -> inputs.computeIfAbsent(index, i -> new StringBuilder())
                                .append(d.get("partial_json").asText());
                        default -> { }
                    }
                }
                case "content_block_stop" -> {
                    int index = data.get("index").asInt();
                    StringBuilder input = inputs.remove(index);
                    if (input != null && !input.isEmpty()) {
                        ((ObjectNode) message.withArray("content").get(index)).set("input", Json.parse(input.toString()));
                    }
                }
                case "message_delta" -> {
                    message.set("stop_reason", data.at("/delta/stop_reason").deepCopy());
                    message.set("stop_sequence", data.at("/delta/stop_sequence").deepCopy());
                    ((ObjectNode) message.get("usage")).setAll((ObjectNode) data.get("usage").deepCopy());
                }
                case "error" -> {
                    message.set("error", data.get("error").deepCopy());
                    return message; // an SDK raises here; nothing after it counts
                }
                default -> { }
            }
        }
        return message;
    }

    /**
     * The shape the SDKs rely on: {@code event:} equals the payload's type; {@code message_start} first;
     * blocks numbered 0, 1, 2... one at a time, each opened, filled with deltas of its own kind and closed,
     * a {@code signature_delta} only on thinking blocks and right before their stop; then
     * {@code message_delta} and {@code message_stop} last, or an {@code error} last.
     */
    static void assertWellFormed(List<SseEvent> events) {
        assertThat(events).isNotEmpty();
        int expectedIndex = 0;
        int open = -1;
        String openType = "";
        boolean signed = false;
        boolean delta = false;
        for (int i = 0; i < events.size(); i++) {
            SseEvent e = events.get(i);
            JsonNode data = Json.parse(e.data());
            String type = data.path("type").asText();
            assertThat(e.event()).as("event name of " + e.data()).hasValue(type);
            if (i == 0) {
                assertThat(type).as("first event").isIn("message_start", "error");
            }
            if (i == events.size() - 1) {
                assertThat(type).as("last event").isIn("message_stop", "error");
            } else {
                assertThat(type).as("only the last event may end the stream").isNotIn("message_stop", "error");
            }
            switch (type) {
                case "content_block_start" -> {
                    assertThat(open).as("a block opened while another is open").isEqualTo(-1);
                    assertThat(data.get("index").asInt()).isEqualTo(expectedIndex);
                    open = expectedIndex++;
                    openType = data.at("/content_block/type").asText();
                    signed = false;
                }
                case "content_block_delta" -> {
                    assertThat(data.get("index").asInt()).as("delta for the open block").isEqualTo(open);
                    assertThat(signed).as("nothing after a signature_delta but the stop").isFalse();
                    String deltaType = data.at("/delta/type").asText();
                    switch (openType) {
                        case "text" -> assertThat(deltaType).isIn("text_delta", "citations_delta");
                        case "thinking" -> assertThat(deltaType).isIn("thinking_delta", "signature_delta");
                        case "tool_use", "server_tool_use" -> assertThat(deltaType).isEqualTo("input_json_delta");
                        default -> throw new AssertionError("no deltas expected for " + openType);
                    }
                    signed = deltaType.equals("signature_delta");
                }
                case "content_block_stop" -> {
                    assertThat(data.get("index").asInt()).as("stop of the open block").isEqualTo(open);
                    open = -1;
                }
                case "message_delta" -> {
                    assertThat(open).as("message_delta with an open block").isEqualTo(-1);
                    assertThat(data.at("/usage/output_tokens").isNumber()).as("usage on message_delta").isTrue();
                    delta = true;
                }
                case "message_stop" -> assertThat(delta).as("message_delta before message_stop").isTrue();
                default -> { }
            }
        }
    }
}
