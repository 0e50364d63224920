package dev.switchboard.wire.anthropic;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.Signature;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.StreamEvent.Delta;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.EventStreamWriter;
import dev.switchboard.wire.internal.StreamingJson;
import dev.switchboard.wire.sse.SseFrames;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Renders one canonical answer stream as the named-event SSE stream of an Anthropic client (spec 6.2):
 * {@code message_start}, per block {@code content_block_start},
 * {@code content_block_delta}s and {@code content_block_stop}, then {@code message_delta} (stop reason
 * and cumulative usage) and {@code message_stop}.
 *
 * <p>Contract: one instance per stream, not thread-safe; feed the events in order. {@link #write} returns
 * the frames for one event, possibly none. Block indexes are renumbered 0, 1, 2... in the order blocks
 * are shown, skipping blocks an Anthropic client cannot see (foreign opaque or redacted blocks); their
 * deltas are dropped too. A block's start content is sent as a delta after an empty start, as Anthropic
 * does. A thinking block's signature (from its start or any {@code SignatureDelta}) is held back and sent
 * as one {@code signature_delta} just before its {@code content_block_stop}; another provider's signature
 * is sent encoded ({@link dev.switchboard.wire.internal.ForeignSignatures}) so it returns to that provider.
 * A {@code StreamError} becomes {@code event: error} with {@link Anthropic#errorBody} and ends the stream
 * (docs/contracts.md §2); after it or after {@code message_stop} every event renders to nothing.
 * Open blocks are closed and a missing {@code message_delta} is supplied before {@code message_stop}, so
 * the final frames always carry the stop reason and usage. The stream opens, and ends, as every client
 * stream does ({@link EventStreamWriter}): events before {@code MessageStart} still get a
 * {@code message_start} first.
 */
public final class AnthropicClientStreamWriter extends EventStreamWriter {
    private static final AnthropicBlockWriter BLOCKS = new AnthropicBlockWriter(AnthropicBlockWriter.Target.CLIENT);

    private enum Kind { TEXT, THINKING, TOOL, OTHER }

    private static final class Open {
        final int index;
        final Kind kind;
        Optional<String> signature = Optional.empty();
        /** Anthropic's own signature is never replaced by another provider's arriving later. */
        boolean signedByAnthropic;

        Open(int index, Kind kind) {
            this.index = index;
            this.kind = kind;
        }
    }

    private final Map<Integer, Open> open = new HashMap<>();
    private final Set<Integer> hidden = new HashSet<>();
    private int nextIndex;
    private boolean messageDeltaSent;

    /** A keep-alive frame, as Anthropic sends: {@code event: ping} with {@code {"type":"ping"}}. */
    public static String ping() {
        return SseFrames.event("ping", "{\"type\":\"ping\"}");
    }

    @Override
    protected void start(StringBuilder out, StreamEvent.MessageStart s) {
        ObjectNode message = Json.object()
                .put("id", s.id())
                .put("type", "message")
                .put("role", "assistant");
        message.putArray("content");
        message.put("model", s.model());
        message.putNull("stop_reason");
        message.putNull("stop_sequence");
        message.set("usage", AnthropicUsageJson.write(s.usage()));
        ObjectNode payload = Json.object().put("type", "message_start");
        payload.set("message", message);
        frame(out, "message_start", payload);
    }

    @Override
    protected void blockStart(StringBuilder out, int index, ContentBlock block) {
        if (open.containsKey(index) || hidden.contains(index)) {
            return; // a repeated start would make the client's indexes ambiguous
        }
        Optional<ObjectNode> rendered = switch (block) {
            case ContentBlock.Text t -> Optional.of(Json.object().put("type", "text").put("text", ""));
            // no refusal block in the messages format: a refusal streams as text (stop_reason "refusal")
            case ContentBlock.Refusal r -> Optional.of(Json.object().put("type", "text").put("text", ""));
            case ContentBlock.Thinking t -> Optional.of(Json.object().put("type", "thinking").put("thinking", "")
                    .put("signature", ""));
            case ContentBlock.ToolCall c -> {
                ObjectNode tool = Json.object().put("type", "tool_use").put("id", AnthropicToolIds.nonEmpty(c.id()))
                        .put("name", c.name());
                tool.putObject("input");
                yield Optional.of(tool);
            }
            case ContentBlock.ToolResult r -> Optional.empty();
            default -> BLOCKS.write(block);
        };
        if (rendered.isEmpty()) {
            hidden.add(index);
            return;
        }
        BLOCKS.carrier(block).ifPresent(carrier -> {
            // another provider's signature of this block, in the thinking block just before it
            int at = nextIndex++;
            ObjectNode start = Json.object().put("type", "content_block_start").put("index", at);
            start.set("content_block", Json.object().put("type", "thinking").put("thinking", "").put("signature", ""));
            frame(out, "content_block_start", start);
            ObjectNode sig = Json.object().put("type", "signature_delta").put("signature", carrier.path("signature").asText());
            ObjectNode delta = Json.object().put("type", "content_block_delta").put("index", at);
            delta.set("delta", sig);
            frame(out, "content_block_delta", delta);
            frame(out, "content_block_stop", Json.object().put("type", "content_block_stop").put("index", at));
        });
        Kind kind = switch (block) {
            case ContentBlock.Text t -> Kind.TEXT;
            case ContentBlock.Refusal r -> Kind.TEXT;
            case ContentBlock.Thinking t -> Kind.THINKING;
            case ContentBlock.ToolCall c -> Kind.TOOL;
            default -> Kind.OTHER;
        };
        Open o = new Open(nextIndex++, kind);
        open.put(index, o);
        ObjectNode payload = Json.object().put("type", "content_block_start").put("index", o.index);
        payload.set("content_block", rendered.get());
        frame(out, "content_block_start", payload);
        switch (block) {
            case ContentBlock.Text t -> delta(out, o, "text_delta", "text", t.text());
            case ContentBlock.Refusal r -> delta(out, o, "text_delta", "text", r.text());
            case ContentBlock.Thinking t -> {
                delta(out, o, "thinking_delta", "thinking", t.text());
                t.signature().ifPresent(sig -> sign(o, sig));
            }
            case ContentBlock.ToolCall c -> delta(out, o, "input_json_delta", "partial_json", c.argumentsJson());
            default -> { }
        }
    }

    @Override
    protected void blockDelta(StringBuilder out, int index, Delta delta) {
        Open o = open.get(index);
        if (o == null) {
            return; // hidden, unknown or already stopped
        }
        switch (delta) {
            case Delta.TextDelta t when o.kind == Kind.TEXT -> delta(out, o, "text_delta", "text", t.text());
            case Delta.ThinkingDelta t when o.kind == Kind.THINKING -> delta(out, o, "thinking_delta", "thinking", t.text());
            case Delta.ArgumentsDelta a when o.kind == Kind.TOOL ->
                    delta(out, o, "input_json_delta", "partial_json", a.partialJson());
            case Delta.SignatureDelta s when o.kind == Kind.THINKING -> sign(o, s.signature());
            default -> { } // a delta that does not fit its block cannot be shown
        }
    }

    @Override
    protected void blockStop(StringBuilder out, int canonicalIndex) {
        Open o = open.remove(canonicalIndex);
        if (o == null) {
            return;
        }
        o.signature.ifPresent(sig -> {
            ObjectNode d = Json.object().put("type", "signature_delta").put("signature", sig);
            frame(out, "content_block_delta", deltaPayload(o, d));
        });
        frame(out, "content_block_stop", Json.object().put("type", "content_block_stop").put("index", o.index));
    }

    @Override
    protected void messageDelta(StringBuilder out, StopReason reason, Optional<String> stopSequence) {
        for (Integer index : open.keySet().stream().sorted().toList()) {
            blockStop(out, index);
        }
        ObjectNode d = Json.object();
        new AnthropicStop(reason, stopSequence, refusalDetails()).write(d);
        ObjectNode payload = Json.object().put("type", "message_delta");
        payload.set("delta", d);
        payload.set("usage", AnthropicUsageJson.write(usage()));
        frame(out, "message_delta", payload);
        messageDeltaSent = true;
    }

    @Override
    protected void messageStop(StringBuilder out) {
        if (!messageDeltaSent) {
            messageDelta(out, StopReason.END_TURN, Optional.empty());
        }
        frame(out, "message_stop", Json.object().put("type", "message_stop"));
        markFinished();
    }

    @Override
    protected void error(StringBuilder out, GatewayError error) {
        frame(out, "error", AnthropicErrors.body(error));
        markFinished();
    }

    /** Holds the signature to send, as the client sees it (another provider's encoded); empty ones sign nothing. */
    private static void sign(Open o, Signature signature) {
        boolean own = signature.isFrom(Anthropic.FORMAT);
        if (signature.value().isEmpty() || o.signedByAnthropic && !own) {
            return;
        }
        o.signature = BLOCKS.signature(signature);
        o.signedByAnthropic = own;
    }

    /**
     * A text, thinking or arguments delta (nearly every frame of a stream), written with a streaming generator
     * straight onto the frame instead of through a tree per delta; the same bytes as {@link #frame} of
     * {@link #deltaPayload} would give.
     */
    private static void delta(StringBuilder out, Open o, String type, String field, String value) {
        if (value.isEmpty()) {
            return;
        }
        out.append("event: content_block_delta\ndata: ");
        try (JsonGenerator g = StreamingJson.onto(out)) {
            g.writeStartObject();
            g.writeStringField("type", "content_block_delta");
            g.writeNumberField("index", o.index);
            g.writeObjectFieldStart("delta");
            g.writeStringField("type", type);
            g.writeStringField(field, value);
            g.writeEndObject();
            g.writeEndObject();
        } catch (IOException e) {
            throw StreamingJson.failed(e);
        }
        out.append("\n\n");
    }

    private static ObjectNode deltaPayload(Open o, ObjectNode delta) {
        ObjectNode payload = Json.object().put("type", "content_block_delta").put("index", o.index);
        payload.set("delta", delta);
        return payload;
    }

    private static void frame(StringBuilder out, String name, ObjectNode payload) {
        out.append(SseFrames.event(name, Json.write(payload)));
    }
}
