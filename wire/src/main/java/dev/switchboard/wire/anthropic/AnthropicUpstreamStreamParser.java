package dev.switchboard.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.Signature;
import dev.switchboard.model.StreamEvent.Delta;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.Usage;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.UpstreamStreamParser;
import dev.switchboard.wire.internal.StreamProgress;
import dev.switchboard.wire.internal.UpstreamEvent;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns the named-event SSE stream of an Anthropic upstream into canonical events.
 *
 * <p>Contract: one instance per stream, not thread-safe. {@link #onEvent} takes one dispatched SSE event
 * (its {@code event:} name, if any, and its data) and returns zero or more canonical events;
 * {@link #onEnd} is called once when the body ended. The payload's {@code type} decides what an event is
 * (the {@code event:} name only when the payload has none). Block indexes are Anthropic's own, which
 * already count all blocks from 0.
 *
 * <ul>
 *   <li>{@code message_start} gives {@code MessageStart} with usage in canonical terms (input includes
 *       cache reads and writes); {@code message_delta} gives {@code MessageDelta} with the cumulative usage
 *       so far; {@code message_stop} gives {@code MessageStop}.
 *   <li>A {@code tool_use} block starts with empty arguments: the {@code {}} of
 *       {@code content_block_start} is a placeholder, and the {@code input_json_delta} slices follow as
 *       {@code ArgumentsDelta}s. Should a block carry real input in its start and no slices, that
 *       input is sent as one slice before the block's stop.
 *   <li>{@code signature_delta} gives a {@code SignatureDelta} with origin {@code anthropic};
 *       {@code redacted_thinking} is complete at its start.
 *   <li>Blocks the canonical model does not know (server-tool uses and results) are collected, their
 *       {@code input_json_delta}s included, and given whole as an {@code Opaque} block start right before
 *       their stop.
 *   <li>{@code ping}, {@code citations_delta} and unknown events or deltas are ignored, as Anthropic asks.
 *   <li>{@code event: error} gives a {@code StreamError} whose status follows the error type
 *       ({@code overloaded_error} 529, {@code rate_limit_error} 429, {@code api_error} 500...). After an
 *       error or {@code message_stop} every later event is ignored.
 *   <li>A payload that is not JSON gives a retryable 502 {@code StreamError}.
 *   <li>{@link #onEnd} after {@code message_start} but without {@code message_stop} or an error gives a
 *       retryable 502 {@code StreamError} saying the stream was cut; before {@code message_start} it gives
 *       nothing, so the engine sees a stream that ended before its first event.
 * </ul>
 */
public final class AnthropicUpstreamStreamParser implements UpstreamStreamParser {

    private static final class PendingTool {
        final ObjectNode startInput;
        boolean sliced;

        PendingTool(ObjectNode startInput) {
            this.startInput = startInput;
        }
    }

    private static final class PendingOpaque {
        final ObjectNode block;
        final StringBuilder input = new StringBuilder();

        PendingOpaque(ObjectNode block) {
            this.block = block;
        }
    }

    private final Map<Integer, PendingTool> tools = new HashMap<>();
    private final Map<Integer, PendingOpaque> opaque = new HashMap<>();
    private Usage usage = Usage.EMPTY;
    private final StreamProgress progress = new StreamProgress();

    @Override
    public List<StreamEvent> onEvent(Optional<String> eventName, String data) {
        return progress.onEvent(eventName, data, "The Anthropic upstream", this::translate);
    }

    private List<StreamEvent> translate(UpstreamEvent event) {
        JsonNode payload = event.payload();
        List<StreamEvent> out = new ArrayList<>(2);
        switch (event.type()) {
            case "message_start" -> messageStart(payload.path("message"), out);
            case "content_block_start" -> blockStart(payload, out);
            case "content_block_delta" -> blockDelta(payload, out);
            case "content_block_stop" -> blockStop(payload.path("index").asInt(), out);
            case "message_delta" -> messageDelta(payload, out);
            case "message_stop" -> {
                ensureStarted(out);
                out.add(new StreamEvent.MessageStop());
                progress.finish();
            }
            case "error" -> {
                return progress.fail(AnthropicErrors.fromStreamEvent(payload));
            }
            default -> { } // ping and event types newer than this code
        }
        return out;
    }

    @Override
    public List<StreamEvent> onEnd() {
        return progress.end("The Anthropic upstream ended the stream before message_stop.");
    }

    private void messageStart(JsonNode message, List<StreamEvent> out) {
        if (!progress.start()) {
            return;
        }
        usage = AnthropicUsageJson.read(message.path("usage"), Usage.EMPTY);
        out.add(new StreamEvent.MessageStart(message.path("id").asText(""), message.path("model").asText(""), usage));
    }

    /** A provider that skips message_start still gets a well-formed canonical stream. */
    private void ensureStarted(List<StreamEvent> out) {
        if (progress.start()) {
            out.add(new StreamEvent.MessageStart("", "", Usage.EMPTY));
        }
    }

    private void blockStart(JsonNode payload, List<StreamEvent> out) {
        ensureStarted(out);
        int index = payload.path("index").asInt();
        JsonNode block = payload.path("content_block");
        switch (block.path("type").asText("")) {
            case "text", "thinking", "redacted_thinking" -> out.add(new StreamEvent.BlockStart(index, AnthropicResponseBlocks.read(block)));
            case "tool_use" -> {
                tools.put(index, new PendingTool(block.path("input") instanceof ObjectNode o ? o : Json.object()));
                out.add(new StreamEvent.BlockStart(index, ContentBlock.ToolCall.of(
                        block.path("id").asText(""), block.path("name").asText(""), "")));
            }
            default -> opaque.put(index, new PendingOpaque(block.isObject() ? (ObjectNode) block.deepCopy() : Json.object()));
        }
    }

    private void blockDelta(JsonNode payload, List<StreamEvent> out) {
        int index = payload.path("index").asInt();
        JsonNode delta = payload.path("delta");
        String type = delta.path("type").asText("");
        PendingOpaque pendingOpaque = opaque.get(index);
        if (pendingOpaque != null) {
            if (type.equals("input_json_delta")) {
                pendingOpaque.input.append(delta.path("partial_json").asText(""));
            }
            return;
        }
        switch (type) {
            case "text_delta" -> out.add(new StreamEvent.BlockDelta(index, new Delta.TextDelta(delta.path("text").asText(""))));
            case "thinking_delta" -> out.add(new StreamEvent.BlockDelta(index,
                    new Delta.ThinkingDelta(delta.path("thinking").asText(""))));
            case "signature_delta" -> {
                String signature = delta.path("signature").asText("");
                if (!signature.isEmpty()) { // an empty one signs nothing and would be refused when echoed
                    out.add(new StreamEvent.BlockDelta(index,
                            new Delta.SignatureDelta(new Signature(Anthropic.FORMAT, signature))));
                }
            }
            case "input_json_delta" -> {
                String slice = delta.path("partial_json").asText("");
                PendingTool tool = tools.get(index);
                if (tool != null) {
                    tool.sliced = true;
                }
                if (!slice.isEmpty()) {
                    out.add(new StreamEvent.BlockDelta(index, new Delta.ArgumentsDelta(slice)));
                }
            }
            default -> { } // citations_delta and newer delta types
        }
    }

    private void blockStop(int index, List<StreamEvent> out) {
        PendingTool tool = tools.remove(index);
        if (tool != null && !tool.sliced && !tool.startInput.isEmpty()) {
            out.add(new StreamEvent.BlockDelta(index, new Delta.ArgumentsDelta(Json.write(tool.startInput))));
        }
        PendingOpaque pending = opaque.remove(index);
        if (pending != null) {
            if (!pending.input.isEmpty()) {
                try {
                    pending.block.set("input", Json.MAPPER.readTree(pending.input.toString()));
                } catch (IOException e) {
                    // unparseable input: keep the start's placeholder rather than inventing one
                }
            }
            out.add(new StreamEvent.BlockStart(index, new ContentBlock.Opaque(Anthropic.FORMAT, pending.block)));
        }
        out.add(new StreamEvent.BlockStop(index));
    }

    private void messageDelta(JsonNode payload, List<StreamEvent> out) {
        ensureStarted(out);
        usage = AnthropicUsageJson.read(payload.path("usage"), usage);
        AnthropicStop stop = AnthropicStop.read(payload.path("delta"));
        out.add(new StreamEvent.MessageDelta(stop.reason(), stop.sequence(), usage, stop.refusalDetails()));
    }
}
