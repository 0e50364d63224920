package dev.switchboard.wire.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ContentBlock.RedactedThinking;
import dev.switchboard.model.ContentBlock.Thinking;
import dev.switchboard.model.ContentBlock.ToolCall;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.Signature;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.StreamEvent.BlockDelta;
import dev.switchboard.model.StreamEvent.BlockStart;
import dev.switchboard.model.StreamEvent.BlockStop;
import dev.switchboard.model.StreamEvent.Delta;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.Usage;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.UpstreamStreamParser;
import dev.switchboard.wire.internal.LogprobEntries;
import dev.switchboard.wire.internal.UpstreamErrors;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns the SSE data payloads of one OpenAI-compatible stream into canonical {@link StreamEvent}s.
 * Create one per upstream stream; not thread-safe.
 *
 * <p>Call {@link #onData} with each event's data (including {@code [DONE]}) and {@link #onEnd} when the
 * body ends; both return the events to forward, and nothing after the stream ended.
 *
 * <ul>
 *   <li>The first chunk yields {@code MessageStart} (its {@code id} and {@code model}).</li>
 *   <li>Reasoning deltas ({@code reasoning_content}, else {@code reasoning}, else the text of
 *       {@code reasoning_details}) form a Thinking block; signatures in {@code reasoning_details} become a
 *       {@code SignatureDelta} on it (origin {@code openai}); encrypted entries a RedactedThinking block.
 *       Content deltas form a Text block, {@code refusal} deltas a Refusal block. A block is closed when a
 *       block of another kind starts.</li>
 *   <li>Tool calls: one ToolCall block per {@code tool_calls[].index}, started with id and name and
 *       empty arguments, then {@code ArgumentsDelta} slices. Compatible servers may interleave the
 *       fragments of parallel calls, while canonical blocks must not overlap; so the first call of a run
 *       streams live and later calls are buffered, then emitted whole (start, all arguments, stop), in
 *       order of first appearance, once the run ends (finish reason, other content, or end of stream).
 *       No fragment is ever lost or attributed to another call. A fragment for a call already emitted
 *       whole (content between fragments of one call, which no known server sends) ends the stream
 *       with an error instead of being mixed into the wrong call.</li>
 *   <li>{@code choices[0].logprobs.content} entries are a LogprobsDelta on the text block,
 *       {@code logprobs.refusal} entries one on the refusal block.</li>
 *   <li>{@code finish_reason} and {@code usage} are remembered; usage may come on a later chunk with
 *       {@code choices: []} (stream_options.include_usage). At {@code [DONE]} or end of body:
 *       {@code MessageDelta(stop reason, usage)} then {@code MessageStop}. Missing usage yields zero
 *       counts marked ESTIMATED.</li>
 *   <li>A chunk with a top-level {@code error}, a malformed chunk, or a body that ends without
 *       {@code [DONE]} and without a finish reason yields {@code StreamError} (retryable per the upstream
 *       status, else 502). Before any chunk arrived the error comes alone, without {@code MessageStart},
 *       so the engine can still fail over.</li>
 * </ul>
 */
public final class OpenAiUpstreamStreamParser implements UpstreamStreamParser {
    private enum Open { NONE, TEXT, REFUSAL, THINKING }

    /** One tool call of the stream, by its wire index. */
    private static final class Slot {
        final int wireIndex;
        String id = "";
        final StringBuilder name = new StringBuilder();
        final StringBuilder pendingArgs = new StringBuilder();
        Optional<Signature> signature = Optional.empty();
        int block = -1;
        boolean closed;

        Slot(int wireIndex) {
            this.wireIndex = wireIndex;
        }
    }

    private boolean started;
    private boolean ended;
    private int nextBlock;
    private Open open = Open.NONE;
    private int openIndex = -1;
    private final Map<Integer, Slot> slots = new LinkedHashMap<>();
    private Slot live;
    private int lastWireIndex = -1;
    private boolean sawToolCalls;
    private boolean sawRefusal;
    private Optional<StopReason> finish = Optional.empty();
    private Optional<String> stopSequence = Optional.empty();
    private Optional<Usage> usage = Optional.empty();
    private String messageId = "";

    /** Chat-completions streams name no events: only the data counts. */
    @Override
    public List<StreamEvent> onEvent(Optional<String> event, String data) {
        return onData(data);
    }

    /** Events for one SSE data payload. */
    public List<StreamEvent> onData(String data) {
        if (ended) {
            return List.of();
        }
        if (data.strip().equals("[DONE]")) {
            return end(true);
        }
        JsonNode chunk;
        try {
            chunk = Json.MAPPER.readTree(data);
        } catch (IOException e) {
            chunk = null;
        }
        List<StreamEvent> out = new ArrayList<>();
        if (!(chunk instanceof ObjectNode c)) {
            fail(out, UpstreamErrors.broken("The upstream sent a malformed stream chunk."));
            return out;
        }
        if (c.hasNonNull("error")) {
            fail(out, streamError(c));
            return out;
        }
        if (!started) {
            started = true;
            messageId = c.path("id").asText("");
            out.add(new StreamEvent.MessageStart(messageId, c.path("model").asText(""), Usage.EMPTY));
        }
        try {
            JsonNode choices = c.path("choices");
            if (choices.isArray()) {
                for (JsonNode choice : choices) {
                    if (choice.path("index").asInt(0) == 0) {
                        choice(out, choice);
                    }
                }
            }
        } catch (GatewayException interleaved) {
            fail(out, interleaved.error());
            return out;
        }
        if (c.path("usage").isObject()) {
            Usage u = OpenAiUsageJson.read(c.path("usage"));
            usage = Optional.of(usage.map(prev -> prev.merge(u)).orElse(u));
        }
        return out;
    }

    /** Events at the end of the body ({@code [DONE]} seen or not). */
    @Override
    public List<StreamEvent> onEnd() {
        return ended ? List.of() : end(false);
    }

    private void choice(List<StreamEvent> out, JsonNode choice) {
        JsonNode delta = choice.path("delta");
        if (delta.isObject()) {
            delta(out, delta);
        }
        List<dev.switchboard.model.TokenLogprob> logprobs = LogprobEntries.read(choice.path("logprobs").path("content"));
        if (!logprobs.isEmpty()) {
            // They belong to the content of this chunk: the text block is open (or one is opened for them).
            if (open != Open.TEXT) {
                openBlock(out, Open.TEXT, ContentBlock.Text.of(""));
            }
            out.add(new BlockDelta(openIndex, new Delta.LogprobsDelta(logprobs)));
        }
        List<dev.switchboard.model.TokenLogprob> refusalLogprobs = LogprobEntries.read(choice.path("logprobs").path("refusal"));
        if (!refusalLogprobs.isEmpty()) {
            // Those of the refusal of this chunk, on its block.
            if (open != Open.REFUSAL) {
                sawRefusal = true;
                openBlock(out, Open.REFUSAL, new ContentBlock.Refusal(""));
            }
            out.add(new BlockDelta(openIndex, new Delta.LogprobsDelta(refusalLogprobs)));
        }
        if (choice.path("finish_reason").isTextual()) {
            finish = Optional.of(OpenAiFinishReasons.fromWire(choice.path("finish_reason").textValue()));
            if (choice.path("stop_reason").isTextual()) {
                stopSequence = Optional.of(choice.path("stop_reason").textValue());
            }
            closeAll(out);
        }
    }

    private void delta(List<StreamEvent> out, JsonNode d) {
        String reasoning = text(d, "reasoning_content");
        if (reasoning.isEmpty()) {
            reasoning = text(d, "reasoning");
        }
        JsonNode details = d.path("reasoning_details");
        if (details instanceof ArrayNode a && !a.isEmpty()) {
            reasoningDetails(out, a, reasoning.isEmpty());
        }
        if (!reasoning.isEmpty()) {
            thinkingText(out, reasoning);
        }
        String content = text(d, "content");
        if (!content.isEmpty()) {
            text(out, content);
        }
        String refusal = text(d, "refusal");
        if (!refusal.isEmpty()) {
            sawRefusal = true;
            if (open != Open.REFUSAL) {
                openBlock(out, Open.REFUSAL, new ContentBlock.Refusal(""));
            }
            out.add(new BlockDelta(openIndex, new Delta.TextDelta(refusal)));
        }
        JsonNode calls = d.path("tool_calls");
        if (calls.isArray()) {
            for (JsonNode call : calls) {
                if (call.isObject()) {
                    toolFragment(out, (ObjectNode) call);
                }
            }
        }
    }

    /** Text entries are used only when the delta has no plain reasoning string (they repeat it otherwise). */
    private void reasoningDetails(List<StreamEvent> out, ArrayNode entries, boolean useText) {
        for (JsonNode e : entries) {
            String type = e.path("type").asText("");
            if (type.equals(OpenAiReasoningDetails.TEXT) || type.equals(OpenAiReasoningDetails.SUMMARY)) {
                String t = type.equals(OpenAiReasoningDetails.TEXT) ? text(e, "text") : text(e, "summary");
                if (useText && !t.isEmpty()) {
                    thinkingText(out, t);
                }
                String sig = text(e, "signature");
                if (!sig.isEmpty()) {
                    if (open != Open.THINKING) {
                        openBlock(out, Open.THINKING, Thinking.of(""));
                    }
                    out.add(new BlockDelta(openIndex, new Delta.SignatureDelta(new Signature(OpenAi.FORMAT, sig))));
                }
            } else if (type.equals(OpenAiReasoningDetails.ENCRYPTED)) {
                closeAll(out);
                int index = nextBlock++;
                out.add(new BlockStart(index, new RedactedThinking(text(e, "data"), OpenAi.FORMAT)));
                out.add(new BlockStop(index));
            }
        }
    }

    private void thinkingText(List<StreamEvent> out, String t) {
        if (open != Open.THINKING) {
            openBlock(out, Open.THINKING, Thinking.of(""));
        }
        out.add(new BlockDelta(openIndex, new Delta.ThinkingDelta(t)));
    }

    private void text(List<StreamEvent> out, String t) {
        if (open != Open.TEXT) {
            openBlock(out, Open.TEXT, ContentBlock.Text.of(""));
        }
        out.add(new BlockDelta(openIndex, new Delta.TextDelta(t)));
    }

    private void openBlock(List<StreamEvent> out, Open kind, ContentBlock start) {
        closeAll(out);
        open = kind;
        openIndex = nextBlock++;
        out.add(new BlockStart(openIndex, start));
    }

    private void toolFragment(List<StreamEvent> out, ObjectNode call) {
        sawToolCalls = true;
        if (open != Open.NONE) {
            closeOpen(out);
        }
        int wireIndex;
        if (call.path("index").isIntegralNumber()) {
            wireIndex = call.path("index").intValue();
        } else {
            // Servers that omit the index: a new id starts a new call, anything else continues the last one.
            String id = text(call, "id");
            Optional<Slot> byId = slots.values().stream().filter(s -> !id.isEmpty() && s.id.equals(id)).findFirst();
            if (byId.isPresent()) {
                wireIndex = byId.get().wireIndex;
            } else if (!id.isEmpty() || lastWireIndex < 0) {
                wireIndex = slots.keySet().stream().mapToInt(Integer::intValue).max().orElse(-1) + 1;
            } else {
                wireIndex = lastWireIndex;
            }
        }
        lastWireIndex = wireIndex;
        Slot slot = slots.computeIfAbsent(wireIndex, Slot::new);
        if (slot.closed) {
            throw UpstreamErrors.broken("The upstream interleaved other content into tool call "
                    + wireIndex + " after it had ended.").toException();
        }
        String id = text(call, "id");
        if (!id.isEmpty() && slot.id.isEmpty()) {
            slot.id = id;
        }
        JsonNode fn = call.path("function");
        String name = text(fn, "name");
        if (!name.isEmpty() && slot.block < 0) {
            // A few servers split the name over fragments; it only counts until the block started.
            slot.name.append(name);
        }
        String args = fn.path("arguments").isTextual() ? fn.path("arguments").textValue()
                : fn.path("arguments").isObject() ? Json.write(fn.path("arguments")) : "";
        Optional<Signature> sig = safeSignature(call);

        if (slot == live) {
            if (!args.isEmpty()) {
                out.add(new BlockDelta(slot.block, new Delta.ArgumentsDelta(args)));
            }
            sig.ifPresent(s -> out.add(new BlockDelta(slot.block, new Delta.SignatureDelta(s))));
            return;
        }
        slot.pendingArgs.append(args);
        if (sig.isPresent()) {
            slot.signature = sig;
        }
        if (live == null && slot.name.length() > 0 && firstUnstarted() == slot) {
            live = slot;
            startTool(out, slot);
            if (!slot.pendingArgs.isEmpty()) {
                out.add(new BlockDelta(slot.block, new Delta.ArgumentsDelta(slot.pendingArgs.toString())));
                slot.pendingArgs.setLength(0);
            }
        }
    }

    private Slot firstUnstarted() {
        for (Slot s : slots.values()) {
            if (!s.closed && s.block < 0) {
                return s;
            }
        }
        return null;
    }

    private void startTool(List<StreamEvent> out, Slot slot) {
        slot.block = nextBlock++;
        String id = slot.id.isEmpty() ? "call_" + messageId + "_" + slot.wireIndex : slot.id;
        out.add(new BlockStart(slot.block, new ToolCall(id, slot.name.toString(), "", slot.signature)));
    }

    /** Closes the open text/thinking block, if any. */
    private void closeOpen(List<StreamEvent> out) {
        if (open != Open.NONE) {
            out.add(new BlockStop(openIndex));
            open = Open.NONE;
        }
    }

    /** Closes everything: the open block, the live tool call, and emits the buffered tool calls whole. */
    private void closeAll(List<StreamEvent> out) {
        closeOpen(out);
        if (live != null) {
            out.add(new BlockStop(live.block));
            live.closed = true;
            live = null;
        }
        for (Slot s : slots.values()) {
            if (s.closed) {
                continue;
            }
            startTool(out, s);
            if (!s.pendingArgs.isEmpty()) {
                out.add(new BlockDelta(s.block, new Delta.ArgumentsDelta(s.pendingArgs.toString())));
                s.pendingArgs.setLength(0);
            }
            out.add(new BlockStop(s.block));
            s.closed = true;
        }
    }

    private List<StreamEvent> end(boolean sawDone) {
        List<StreamEvent> out = new ArrayList<>();
        if (!started) {
            // nothing at all: the engine sees an empty stream and classifies it itself (retryable, "empty stream")
            ended = true;
            return out;
        }
        closeAll(out);
        ended = true;
        if (finish.isEmpty() && !sawDone) {
            out.add(new StreamEvent.StreamError(UpstreamErrors.broken("The upstream stream ended before the answer was complete.")));
            return out;
        }
        StopReason stop = finish.orElse(StopReason.END_TURN);
        Optional<String> seq = Optional.empty();
        if (stop == StopReason.END_TURN) {
            if (sawToolCalls) {
                stop = StopReason.TOOL_USE;
            } else if (sawRefusal) {
                stop = StopReason.REFUSAL;
            } else if (stopSequence.isPresent()) {
                stop = StopReason.STOP_SEQUENCE;
                seq = stopSequence;
            }
        }
        out.add(new StreamEvent.MessageDelta(stop, seq,
                usage.orElse(Usage.EMPTY.withProvenance(Usage.Provenance.ESTIMATED))));
        out.add(new StreamEvent.MessageStop());
        return out;
    }

    private void fail(List<StreamEvent> out, GatewayError error) {
        if (started) {
            closeAll(out);
        }
        out.add(new StreamEvent.StreamError(error));
        ended = true;
    }

    /** The error of an in-band error chunk; its numeric {@code code}, when it is an HTTP status, decides retry. */
    private static GatewayError streamError(ObjectNode chunk) {
        JsonNode code = chunk.path("error").path("code");
        int status = code.isIntegralNumber() ? parseStatus(Integer.toString(code.intValue()))
                : code.isTextual() ? parseStatus(code.textValue()) : 502;
        return OpenAiErrors.fromUpstream(status, Json.writeBytes(chunk));
    }

    private static int parseStatus(String s) {
        try {
            int v = Integer.parseInt(s);
            return v >= 400 && v <= 599 ? v : 502;
        } catch (NumberFormatException e) {
            return 502;
        }
    }

    private static Optional<Signature> safeSignature(ObjectNode call) {
        try {
            return OpenAiThoughtSignatures.read(call, "tool_calls");
        } catch (GatewayException e) {
            return Optional.empty();
        }
    }

    private static String text(JsonNode owner, String field) {
        JsonNode v = owner.path(field);
        return v.isTextual() ? v.textValue() : "";
    }
}
