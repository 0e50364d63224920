package dev.switchboard.wire.gemini;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.Signature;
import dev.switchboard.model.StreamEvent.Delta;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.EventStreamWriter;
import dev.switchboard.wire.internal.StreamingJson;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Renders one canonical event stream for a content-parts client (spec 6.3, docs/contracts.md §2).
 * Create one per client stream; not thread-safe.
 *
 * <p>Each element is a whole response-shaped chunk ({@code candidates[0].content.parts},
 * {@code modelVersion} = the requested model, {@code responseId}), never a delta object: text and
 * thinking pieces become one text part each ({@code thought: true} for thinking); a tool call is
 * buffered and sent whole, as Google sends {@code functionCall}s, when its block stops; images and
 * Gemini opaque parts are sent as they start. A Gemini signature goes on the next part of the block it
 * belongs to, or on an empty text part of that block when the block ends without another piece. The
 * last chunk has empty parts, the {@code finishReason} and {@code usageMetadata}.
 *
 * <p>Two framings, as Google has them: {@link Mode#SSE} ({@code ?alt=sse}) writes each chunk as a
 * {@code data:} line; {@link Mode#JSON_ARRAY} (no {@code alt}) writes one JSON array incrementally:
 * {@code [} when the answer starts, chunks separated by commas, {@code ]} at the end.
 *
 * <p>A {@link StreamEvent.StreamError} becomes an element with a top-level {@code error} object (Google
 * style, with {@code status} and a numeric {@code code}; see {@link Gemini#errorBody}) and ends the
 * stream properly: nothing is written after it, and the array is closed.
 */
public final class GeminiClientStreamWriter extends EventStreamWriter {

    /** How the chunks are framed. */
    public enum Mode {
        /** Server-sent events, one {@code data:} line per chunk ({@code text/event-stream}). */
        SSE,
        /** One JSON array written piece by piece ({@code application/json}). */
        JSON_ARRAY
    }

    private sealed interface Open {
    }

    /** A text or thinking block; {@code pending} is a signature not yet written on a part. */
    private static final class TextBlock implements Open {
        private final boolean thought;
        private Optional<Signature> pending;

        TextBlock(boolean thought, Optional<Signature> signature) {
            this.thought = thought;
            this.pending = GeminiSignatures.forClient(signature);
        }
    }

    private static final class CallBlock implements Open {
        private final String id;
        private final String name;
        private final StringBuilder arguments;
        private Optional<Signature> signature;

        CallBlock(ContentBlock.ToolCall call) {
            id = call.id();
            name = call.name();
            arguments = new StringBuilder(call.argumentsJson());
            signature = GeminiSignatures.forClient(call.signature());
        }
    }

    private record Ignored() implements Open {
    }

    private final Mode mode;
    private final String model;
    private final Map<Integer, Open> open = new HashMap<>();
    /** Indexes of refusal blocks, whose log probabilities the format has no place for. */
    private final Set<Integer> refusals = new HashSet<>();
    private String responseId = "";
    private boolean arrayOpened;
    private boolean anyElement;

    /**
     * @param mode           the framing
     * @param requestedModel the model as the client named it in the path; every chunk's {@code modelVersion}
     */
    public GeminiClientStreamWriter(Mode mode, String requestedModel) {
        this.mode = Objects.requireNonNull(mode, "mode");
        this.model = Objects.requireNonNull(requestedModel, "requestedModel");
    }

    /** The {@code Content-Type} of the response body for this framing. */
    public String contentType() {
        return mode == Mode.SSE ? "text/event-stream" : "application/json";
    }

    /**
     * What closes the body if the event stream stopped without {@code MessageStop} or
     * {@code StreamError}: the closing {@code ]} of a JSON array (the whole {@code []} if nothing was
     * written), nothing for SSE. The engine should have sent a {@code StreamError} instead; this only
     * keeps the body well-formed.
     */
    public String finish() {
        if (finished()) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        end(out);
        return out.toString();
    }

    @Override
    protected void start(StringBuilder out, StreamEvent.MessageStart s) {
        responseId = s.id();
        if (mode == Mode.JSON_ARRAY) {
            out.append('[');
            arrayOpened = true;
        }
    }

    @Override
    protected void blockStart(StringBuilder out, int index, ContentBlock block) {
        switch (block) {
            case ContentBlock.Text t -> {
                TextBlock b = new TextBlock(false, t.signature());
                open.put(index, b);
                piece(out, b, t.text());
            }
            case ContentBlock.Refusal r -> {
                refusals.add(index);
                TextBlock b = new TextBlock(false, Optional.empty());
                open.put(index, b);
                piece(out, b, r.text());
            }
            case ContentBlock.Thinking t -> {
                TextBlock b = new TextBlock(true, t.signature());
                open.put(index, b);
                piece(out, b, t.text());
            }
            case ContentBlock.ToolCall c -> open.put(index, new CallBlock(c));
            default -> {
                open.put(index, new Ignored());
                GeminiClientResponseWriter.part(block).ifPresent(p -> emitPart(out, p));
            }
        }
    }

    @Override
    protected void blockDelta(StringBuilder out, int index, Delta delta) {
        Open b = open.get(index);
        switch (delta) {
            case Delta.TextDelta t -> {
                if (b instanceof TextBlock tb) {
                    piece(out, tb, t.text());
                }
            }
            case Delta.ThinkingDelta t -> {
                if (b instanceof TextBlock tb) {
                    piece(out, tb, t.text());
                }
            }
            case Delta.ArgumentsDelta a -> {
                if (b instanceof CallBlock cb) {
                    cb.arguments.append(a.partialJson());
                }
            }
            case Delta.LogprobsDelta l -> {
                // those of a refusal have no place here (the plain answer shows only the text's)
                if (!l.tokens().isEmpty() && !refusals.contains(index)) {
                    // a chunk of their own: no parts, the candidate's logprobsResult
                    ObjectNode chunk = GeminiClientResponseWriter.envelope(Json.array(), Optional.empty(),
                            Optional.empty(), model, responseId);
                    ((ObjectNode) chunk.path("candidates").get(0)).set("logprobsResult", GeminiLogprobs.write(l.tokens()));
                    emit(out, chunk);
                }
            }
            case Delta.SignatureDelta s -> {
                if (b instanceof TextBlock tb) {
                    tb.pending = GeminiSignatures.forClient(Optional.of(s.signature()));
                } else if (b instanceof CallBlock cb) {
                    cb.signature = GeminiSignatures.forClient(Optional.of(s.signature()));
                }
            }
        }
    }

    @Override
    protected void blockStop(StringBuilder out, int index) {
        Open b = open.remove(index);
        if (b instanceof TextBlock tb && tb.pending.isPresent()) {
            emitPart(out, tb.thought ? GeminiParts.thought("", tb.pending) : GeminiParts.text("", tb.pending));
        } else if (b instanceof CallBlock cb) {
            emitPart(out, GeminiParts.functionCall(new ContentBlock.ToolCall(cb.id, cb.name, cb.arguments.toString(),
                    cb.signature)));
        }
    }

    @Override
    protected void messageStop(StringBuilder out) {
        emit(out, GeminiClientResponseWriter.envelope(Json.array(), Optional.of(stopReason()), Optional.of(usage()),
                model, responseId));
        end(out);
    }

    @Override
    protected void error(StringBuilder out, GatewayError error) {
        emit(out, GeminiErrors.streamElement(error));
        end(out);
    }

    private void piece(StringBuilder out, TextBlock b, String text) {
        if (text.isEmpty()) {
            return;
        }
        if (b.pending.isEmpty()) {
            emitTextPart(out, text, b.thought);
            return;
        }
        emitPart(out, b.thought ? GeminiParts.thought(text, b.pending) : GeminiParts.text(text, b.pending));
        b.pending = Optional.empty();
    }

    /**
     * A chunk of one unsigned text or thinking part (nearly every chunk of a stream), written with a streaming
     * generator straight onto the frame instead of through a tree per chunk; the same bytes as {@link #emitPart} of
     * {@link GeminiParts#text} or {@link GeminiParts#thought} would give.
     */
    private void emitTextPart(StringBuilder out, String text, boolean thought) {
        beforeElement(out);
        try (JsonGenerator g = StreamingJson.onto(out)) {
            g.writeStartObject();
            g.writeArrayFieldStart("candidates");
            g.writeStartObject();
            g.writeObjectFieldStart("content");
            g.writeStringField("role", "model");
            g.writeArrayFieldStart("parts");
            g.writeStartObject();
            g.writeStringField("text", text);
            if (thought) {
                g.writeBooleanField("thought", true);
            }
            g.writeEndObject();
            g.writeEndArray();
            g.writeEndObject();
            g.writeNumberField("index", 0);
            g.writeEndObject();
            g.writeEndArray();
            g.writeStringField("modelVersion", model);
            if (!responseId.isEmpty()) {
                g.writeStringField("responseId", responseId);
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw StreamingJson.failed(e);
        }
        afterElement(out);
    }

    private void emitPart(StringBuilder out, ObjectNode part) {
        ArrayNode parts = Json.array();
        parts.add(part);
        emit(out, GeminiClientResponseWriter.envelope(parts, Optional.empty(), Optional.empty(), model, responseId));
    }

    private void emit(StringBuilder out, ObjectNode element) {
        beforeElement(out);
        // one line: Jackson escapes line breaks inside strings
        out.append(Json.write(element));
        afterElement(out);
    }

    /** What goes before an element: {@code data: }, or the array's opening or the comma after the previous one. */
    private void beforeElement(StringBuilder out) {
        if (mode == Mode.SSE) {
            out.append("data: ");
            return;
        }
        if (!arrayOpened) {
            out.append('[');
            arrayOpened = true;
        }
        if (anyElement) {
            out.append(",\n");
        }
    }

    /** What goes after an element: the blank line ending an event. */
    private void afterElement(StringBuilder out) {
        if (mode == Mode.SSE) {
            out.append("\n\n");
        }
        anyElement = true;
    }

    private void end(StringBuilder out) {
        if (mode == Mode.JSON_ARRAY) {
            if (!arrayOpened) {
                out.append('[');
                arrayOpened = true;
            }
            out.append(']');
        }
        markFinished();
        open.clear();
    }
}
