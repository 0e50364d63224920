package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Renders a {@link Reply} as Anthropic messages: one {@code message} object, or the named-event stream of
 * ({@code message_start}, a {@code ping}, per block {@code content_block_start},
 * deltas and {@code content_block_stop}, {@code message_delta} with cumulative usage,
 * {@code message_stop}).
 *
 * <p>Blocks, in order: a {@code redacted_thinking} block when asked for; a {@code thinking} block when
 * the answer has reasoning, signed by {@link FakeSignatures} (text empty when the request said
 * {@code display: omitted}), its signature streamed as a {@code signature_delta} just before the stop;
 * then the text, or one {@code tool_use} per call whose input streams as an empty
 * {@code input_json_delta} followed by two or three slices (a client that keeps the {@code {}} of the
 * start, or does not concatenate, is caught). Usage always carries the cache fields, zero or not, as
 * Anthropic's does.
 */
final class AnthropicRender {

    /** One SSE event: its name and payload (whose {@code type} equals the name). */
    record Frame(String event, ObjectNode data) {
    }

    static final String REDACTED_DATA = "fakeredacted." + Base64.getEncoder().encodeToString(
            "Reasoning the fake upstream will not show.".getBytes(StandardCharsets.UTF_8));

    private final String id;
    private final String model;
    private final boolean displayOmitted;
    private final boolean redacted;
    private final AnthropicCache.Split cache;

    AnthropicRender(String id, String model, boolean displayOmitted, boolean redacted, AnthropicCache.Split cache) {
        this.id = id;
        this.model = model;
        this.displayOmitted = displayOmitted;
        this.redacted = redacted;
        this.cache = cache;
    }

    ObjectNode message(Reply reply) {
        ObjectNode message = TestkitJson.object().put("id", id).put("type", "message").put("role", "assistant")
                .put("model", model);
        ArrayNode content = message.putArray("content");
        ScriptedAnswer answer = reply.answer();
        if (redacted) {
            content.add(redactedBlock());
        }
        if (!answer.reasoning().isEmpty()) {
            String trace = ScriptedAnswer.join(answer.reasoning());
            content.addObject().put("type", "thinking").put("thinking", displayOmitted ? "" : trace)
                    .put("signature", FakeSignatures.sign(trace));
        }
        switch (answer) {
            case ScriptedAnswer.Text text -> {
                if (!text.pieces().isEmpty()) {
                    content.addObject().put("type", "text").put("text", text.text());
                }
            }
            case ScriptedAnswer.ToolCalls calls -> calls.calls().forEach(call -> {
                ObjectNode block = toolUseStart(call);
                block.set("input", TestkitJson.parseOrMissing(call.arguments().getBytes(StandardCharsets.UTF_8)));
                content.add(block);
            });
        }
        stop(message, answer);
        message.set("usage", usage(reply.usage().completionTokens(), true));
        return message;
    }

    /** Every event of the stream, in order. */
    List<Frame> events(Reply reply) {
        ScriptedAnswer answer = reply.answer();
        List<Frame> frames = new ArrayList<>();
        ObjectNode start = TestkitJson.object().put("id", id).put("type", "message").put("role", "assistant");
        start.putArray("content");
        start.put("model", model).putNull("stop_reason").putNull("stop_sequence");
        start.set("usage", usage(1, true));
        ObjectNode messageStart = TestkitJson.object().put("type", "message_start");
        messageStart.set("message", start);
        frames.add(new Frame("message_start", messageStart));
        frames.add(new Frame("ping", TestkitJson.object().put("type", "ping")));

        int index = 0;
        if (redacted) {
            frames.add(blockStart(index, redactedBlock()));
            frames.add(blockStop(index++));
        }
        if (!answer.reasoning().isEmpty()) {
            frames.add(blockStart(index, TestkitJson.object().put("type", "thinking").put("thinking", "").put("signature", "")));
            if (!displayOmitted) {
                for (String piece : answer.reasoning()) {
                    frames.add(delta(index, TestkitJson.object().put("type", "thinking_delta").put("thinking", piece)));
                }
            }
            frames.add(delta(index, TestkitJson.object().put("type", "signature_delta")
                    .put("signature", FakeSignatures.sign(ScriptedAnswer.join(answer.reasoning())))));
            frames.add(blockStop(index++));
        }
        switch (answer) {
            case ScriptedAnswer.Text text -> {
                if (!text.pieces().isEmpty()) {
                    frames.add(blockStart(index, TestkitJson.object().put("type", "text").put("text", "")));
                    for (String piece : text.pieces()) {
                        frames.add(delta(index, TestkitJson.object().put("type", "text_delta").put("text", piece)));
                    }
                    frames.add(blockStop(index++));
                }
            }
            case ScriptedAnswer.ToolCalls calls -> {
                for (ScriptedAnswer.ToolCall call : calls.calls()) {
                    ObjectNode block = toolUseStart(call);
                    block.putObject("input");
                    frames.add(blockStart(index, block));
                    for (String slice : slices(call.arguments())) {
                        frames.add(delta(index, TestkitJson.object().put("type", "input_json_delta").put("partial_json", slice)));
                    }
                    frames.add(blockStop(index++));
                }
            }
        }
        ObjectNode messageDelta = TestkitJson.object().put("type", "message_delta");
        stop(messageDelta.putObject("delta"), answer);
        messageDelta.set("usage", usage(reply.usage().completionTokens(), false));
        frames.add(new Frame("message_delta", messageDelta));
        frames.add(new Frame("message_stop", TestkitJson.object().put("type", "message_stop")));
        return frames;
    }

    private static ObjectNode redactedBlock() {
        return TestkitJson.object().put("type", "redacted_thinking").put("data", REDACTED_DATA);
    }

    static String toolId(ScriptedAnswer.ToolCall call) {
        return "toolu_fake_" + call.sequence();
    }

    private static ObjectNode toolUseStart(ScriptedAnswer.ToolCall call) {
        return TestkitJson.object().put("type", "tool_use").put("id", toolId(call)).put("name", call.name());
    }

    private static void stop(ObjectNode target, ScriptedAnswer answer) {
        String reason = switch (answer.finish()) {
            case STOP -> answer instanceof ScriptedAnswer.Text t && t.stopSequence().isPresent() ? "stop_sequence" : "end_turn";
            case LENGTH -> "max_tokens";
            case TOOL_CALLS -> "tool_use";
        };
        target.put("stop_reason", reason);
        if (answer instanceof ScriptedAnswer.Text t && t.stopSequence().isPresent() && reason.equals("stop_sequence")) {
            target.put("stop_sequence", t.stopSequence().get());
        } else {
            target.putNull("stop_sequence");
        }
    }

    /** Cumulative usage; {@code full} adds what only the message object and message_start carry. */
    private ObjectNode usage(int outputTokens, boolean full) {
        ObjectNode usage = TestkitJson.object()
                .put("input_tokens", cache.uncached())
                .put("cache_creation_input_tokens", cache.write5m() + cache.write1h())
                .put("cache_read_input_tokens", cache.read());
        if (full) {
            usage.putObject("cache_creation")
                    .put("ephemeral_5m_input_tokens", cache.write5m())
                    .put("ephemeral_1h_input_tokens", cache.write1h());
        }
        usage.put("output_tokens", outputTokens);
        if (full) {
            usage.put("service_tier", "standard");
        }
        return usage;
    }

    private static Frame blockStart(int index, ObjectNode block) {
        ObjectNode data = TestkitJson.object().put("type", "content_block_start").put("index", index);
        data.set("content_block", block);
        return new Frame("content_block_start", data);
    }

    private static Frame delta(int index, ObjectNode delta) {
        ObjectNode data = TestkitJson.object().put("type", "content_block_delta").put("index", index);
        data.set("delta", delta);
        return new Frame("content_block_delta", data);
    }

    private static Frame blockStop(int index) {
        return new Frame("content_block_stop", TestkitJson.object().put("type", "content_block_stop").put("index", index));
    }

    /** An empty first slice, as Anthropic often sends, then two or three slices of the arguments. */
    static List<String> slices(String arguments) {
        List<String> slices = new ArrayList<>(List.of(""));
        int count = Math.min(3, arguments.length());
        int size = (arguments.length() + count - 1) / count;
        for (int start = 0; start < arguments.length(); start += size) {
            slices.add(arguments.substring(start, Math.min(arguments.length(), start + size)));
        }
        return slices;
    }
}
