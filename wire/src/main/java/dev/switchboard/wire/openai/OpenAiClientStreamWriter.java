package dev.switchboard.wire.openai;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ContentBlock.RedactedThinking;
import dev.switchboard.model.ContentBlock.Text;
import dev.switchboard.model.ContentBlock.Thinking;
import dev.switchboard.model.ContentBlock.ToolCall;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.Signature;
import dev.switchboard.model.StreamEvent.Delta;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.EventStreamWriter;
import dev.switchboard.wire.internal.LogprobEntries;
import dev.switchboard.wire.internal.StreamingJson;
import dev.switchboard.wire.sse.SseFrames;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Renders one canonical event stream as a chat-completions SSE stream (spec 6.1, docs/contracts.md §2).
 * Create one per client stream; not thread-safe.
 *
 * <p>Output: a first chunk with {@code delta: {role: assistant, content: ""}}; text as
 * {@code delta.content}; a refusal as {@code delta.refusal}; reasoning as both {@code delta.reasoning_content} and {@code delta.reasoning};
 * each tool call as a first fragment with {@code index, id, type, function: {name, arguments}} and then
 * argument slices, where {@code index} counts tool calls only (0, 1, ...) whatever their canonical block
 * index; signatures and redacted reasoning as {@code delta.reasoning_details} entries (indexed per
 * reasoning block, so SDK delta accumulation keeps them apart, and copied whole onto the first fragment of
 * the first tool call, see {@link OpenAiReasoningDetails}); {@code finish_reason} null until a final
 * chunk with an empty delta, the finish reason and {@code usage} (always, whatever the request's
 * {@code stream_options}); then {@code data: [DONE]}.
 *
 * <p>A {@link StreamEvent.StreamError} ends the stream with a chunk carrying a top-level {@code error}
 * envelope (and {@code finish_reason: "error"}, the value OpenRouter uses) and then {@code [DONE]}.
 * Nothing is written after {@code [DONE]}.
 */
public final class OpenAiClientStreamWriter extends EventStreamWriter {
    private enum Kind { TEXT, REFUSAL, THINKING, TOOL, OTHER }

    private final long created;
    private final String fallbackId;
    private String id = "";
    private String model = "";
    private final Map<Integer, Kind> kinds = new HashMap<>();
    private final Map<Integer, Integer> toolIndex = new HashMap<>();
    private final Map<Integer, Integer> reasoningIndex = new HashMap<>();
    private int nextTool;
    private boolean refusalShown;
    private int nextReasoning;
    /** Reasoning so far, by block index, to copy onto the first tool call (see {@link OpenAiReasoningDetails}). */
    private final Map<Integer, ReasoningSoFar> reasoning = new java.util.TreeMap<>();

    /** A reasoning block as streamed so far (a builder: traces can be long, deltas many). */
    private static final class ReasoningSoFar {
        final StringBuilder text = new StringBuilder();
        Optional<Signature> signature = Optional.empty();
        Optional<RedactedThinking> redacted = Optional.empty();

        ContentBlock block() {
            return redacted.<ContentBlock>map(r -> r).orElseGet(() -> new Thinking(text.toString(), signature));
        }
    }

    /** @param created the {@code created} Unix time (seconds) every chunk of this stream carries */
    public OpenAiClientStreamWriter(long created) {
        this(created, "chatcmpl-stream");
    }

    /**
     * @param created    the {@code created} Unix time (seconds) every chunk of this stream carries
     * @param fallbackId the id every chunk carries when the upstream's answer had none (spec 2.6: a stable
     *                   completion id; some upstreams, Gemini among them, may leave theirs out)
     */
    public OpenAiClientStreamWriter(long created, String fallbackId) {
        this.created = created;
        this.fallbackId = fallbackId;
    }

    @Override
    protected void start(StringBuilder out, StreamEvent.MessageStart s) {
        id = s.id().isBlank() ? fallbackId : s.id();
        model = s.model();
        emitDelta(out, "role", "assistant", "content", "");
    }

    @Override
    protected void blockStart(StringBuilder out, int index, ContentBlock block) {
        switch (block) {
            case Text t -> {
                kinds.put(index, Kind.TEXT);
                if (!t.text().isEmpty()) {
                    emitDelta(out, "content", t.text(), null, null);
                }
            }
            case ContentBlock.Refusal r -> {
                kinds.put(index, Kind.REFUSAL);
                refusalShown = true;
                if (!r.text().isEmpty()) {
                    emitDelta(out, "refusal", r.text(), null, null);
                }
            }
            case Thinking t -> {
                kinds.put(index, Kind.THINKING);
                ReasoningSoFar sofar = new ReasoningSoFar();
                sofar.text.append(t.text());
                sofar.signature = t.signature();
                reasoning.put(index, sofar);
                int r = nextReasoning++;
                reasoningIndex.put(index, r);
                if (!t.text().isEmpty()) {
                    emitDelta(out, "reasoning_content", t.text(), "reasoning", t.text());
                }
                t.signature().ifPresent(sig -> emit(out, chunk(signatureDelta(r, sig), null)));
            }
            case ToolCall c -> {
                kinds.put(index, Kind.TOOL);
                int k = nextTool++;
                toolIndex.put(index, k);
                ObjectNode call = Json.object();
                call.put("index", k);
                call.setAll(OpenAiClientResponseWriter.toolCall(c));
                List<ContentBlock> sofar = reasoning.values().stream().map(ReasoningSoFar::block).toList();
                if (k == 0 && OpenAiReasoningDetails.needed(sofar)) {
                    OpenAiReasoningDetails.attach(call, OpenAiReasoningDetails.write(sofar, true));
                }
                emit(out, chunk(toolDelta(call), null));
            }
            case RedactedThinking r -> {
                kinds.put(index, Kind.OTHER);
                ReasoningSoFar sofar = new ReasoningSoFar();
                sofar.redacted = Optional.of(r);
                reasoning.put(index, sofar);
                ObjectNode delta = Json.object();
                delta.putArray("reasoning_details").add(OpenAiReasoningDetails.encryptedEntry(nextReasoning++, r, true));
                emit(out, chunk(delta, null));
            }
            default -> kinds.put(index, Kind.OTHER);
        }
    }

    @Override
    protected void blockDelta(StringBuilder out, int index, Delta delta) {
        Kind kind = kinds.getOrDefault(index, Kind.OTHER);
        switch (delta) {
            case Delta.TextDelta t -> {
                if (!t.text().isEmpty()) {
                    emitDelta(out, kind == Kind.REFUSAL ? "refusal" : "content", t.text(), null, null);
                }
            }
            case Delta.ThinkingDelta t -> {
                ReasoningSoFar sofar = reasoning.get(index);
                if (sofar != null) {
                    sofar.text.append(t.text());
                }
                if (!t.text().isEmpty()) {
                    emitDelta(out, "reasoning_content", t.text(), "reasoning", t.text());
                }
            }
            case Delta.ArgumentsDelta a -> {
                Integer k = toolIndex.get(index);
                if (k != null && !a.partialJson().isEmpty()) {
                    ObjectNode call = Json.object();
                    call.put("index", k);
                    call.putObject("function").put("arguments", a.partialJson());
                    emit(out, chunk(toolDelta(call), null));
                }
            }
            case Delta.LogprobsDelta l -> {
                // A chunk of its own with an empty delta: SDKs append logprobs.content (and .refusal) across chunks.
                ObjectNode c = chunk(Json.object(), null);
                ObjectNode logprobs = ((ObjectNode) c.path("choices").get(0)).putObject("logprobs");
                boolean refusal = kind == Kind.REFUSAL;
                logprobs.set("content", refusal ? Json.MAPPER.nullNode() : LogprobEntries.write(l.tokens()));
                logprobs.set("refusal", refusal ? LogprobEntries.write(l.tokens()) : Json.MAPPER.nullNode());
                emit(out, c);
            }
            case Delta.SignatureDelta s -> {
                if (kind == Kind.THINKING) {
                    reasoning.get(index).signature = Optional.of(s.signature());
                    emit(out, chunk(signatureDelta(reasoningIndex.get(index), s.signature()), null));
                } else if (kind == Kind.TOOL && s.signature().isFrom(OpenAiThoughtSignatures.GEMINI)) {
                    ObjectNode call = Json.object();
                    call.put("index", toolIndex.get(index));
                    OpenAiThoughtSignatures.write(call, Optional.of(s.signature()));
                    emit(out, chunk(toolDelta(call), null));
                }
                // A signature on a text part (Gemini) has no chat-completions field; it is not shown.
            }
        }
    }

    @Override
    protected void messageStop(StringBuilder out) {
        ObjectNode last = chunk(Json.object(), OpenAiFinishReasons.toWire(stopReason(), refusalShown));
        last.set("usage", OpenAiUsageJson.write(usage()));
        emit(out, last);
        out.append(SseFrames.DONE);
        markFinished();
    }

    @Override
    protected void error(StringBuilder out, GatewayError e) {
        ObjectNode last = chunk(Json.object(), "error");
        last.set("usage", OpenAiUsageJson.write(usage()));
        last.set("error", OpenAiErrors.error(e));
        emit(out, last);
        out.append(SseFrames.DONE);
        markFinished();
    }

    private ObjectNode chunk(ObjectNode delta, String finishReason) {
        ObjectNode c = Json.object();
        c.put("id", id);
        c.put("object", "chat.completion.chunk");
        c.put("created", created);
        c.put("model", model);
        ArrayNode choices = c.putArray("choices");
        ObjectNode choice = choices.addObject();
        choice.put("index", 0);
        choice.set("delta", delta);
        choice.putNull("logprobs");
        if (finishReason == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finishReason);
        }
        return c;
    }

    /**
     * The frame of a chunk whose delta holds one or two string fields (the stream's start, text and reasoning
     * deltas: nearly every chunk of a stream), written with a streaming generator straight onto the frame
     * instead of through a tree built per chunk. Same bytes as {@link #chunk} would give.
     */
    private void emitDelta(StringBuilder out, String field, String value, String field2, String value2) {
        out.append("data: ");
        try (JsonGenerator g = StreamingJson.onto(out)) {
            g.writeStartObject();
            g.writeStringField("id", id);
            g.writeStringField("object", "chat.completion.chunk");
            g.writeNumberField("created", created);
            g.writeStringField("model", model);
            g.writeArrayFieldStart("choices");
            g.writeStartObject();
            g.writeNumberField("index", 0);
            g.writeObjectFieldStart("delta");
            g.writeStringField(field, value);
            if (field2 != null) {
                g.writeStringField(field2, value2);
            }
            g.writeEndObject();
            g.writeNullField("logprobs");
            g.writeNullField("finish_reason");
            g.writeEndObject();
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw StreamingJson.failed(e);
        }
        out.append("\n\n");
    }

    private static ObjectNode signatureDelta(int reasoningIdx, Signature sig) {
        ObjectNode d = Json.object();
        d.putArray("reasoning_details").add(OpenAiReasoningDetails.signatureEntry(reasoningIdx, sig));
        return d;
    }

    private static ObjectNode toolDelta(ObjectNode call) {
        ObjectNode d = Json.object();
        d.putArray("tool_calls").add(call);
        return d;
    }

    private static void emit(StringBuilder out, ObjectNode chunk) {
        out.append(SseFrames.data(Json.write(chunk)));
    }
}
