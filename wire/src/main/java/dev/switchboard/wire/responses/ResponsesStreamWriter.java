package dev.switchboard.wire.responses;

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
import dev.switchboard.model.TokenLogprob;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.EventStreamWriter;
import dev.switchboard.wire.internal.FreeformTools;
import dev.switchboard.wire.internal.LogprobEntries;
import dev.switchboard.wire.sse.SseFrames;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Renders one canonical event stream as a Responses event stream (docs/contracts.md §2). One
 * instance per stream; not thread-safe.
 *
 * <p>Every event is an SSE frame whose {@code event:} name equals the payload's {@code type}, and carries
 * {@code sequence_number} counting from 0. Order: {@code response.created} (always first) and
 * {@code response.in_progress}; per canonical block one output item: {@code output_item.added}, then for
 * text {@code content_part.added}, {@code output_text.delta}s, {@code output_text.done},
 * {@code content_part.done}; for a refusal the same with a {@code refusal} part and
 * {@code refusal.delta}s, {@code refusal.done}; for a trace {@code reasoning_summary_part.added},
 * {@code reasoning_summary_text.delta}s, {@code reasoning_summary_text.done},
 * {@code reasoning_summary_part.done} (only when it has text); for a call
 * {@code function_call_arguments.delta}s and {@code .done}; then {@code output_item.done}. The stream
 * ends with {@code response.completed} (or {@code response.incomplete}) holding the whole response and
 * its usage. A {@link StreamEvent.StreamError} ends it with an {@code error} event and then
 * {@code response.failed}. Nothing is written after the terminal event; there is no {@code [DONE]}.
 *
 * <p>The items and their ids are the same as {@link Responses#toClient} would give the accumulated
 * answer, so {@link #terminalResponse()} is what the engine stores.
 */
public final class ResponsesStreamWriter extends EventStreamWriter {
    private enum Kind { MESSAGE, REFUSAL, REASONING, CALL, CUSTOM_CALL, OPAQUE }

    private final ResponsesHeader header;
    private final ResponsesToolNames names;
    private final ResponsesIdSource ids;
    private int sequence;
    private String model = "";
    private final List<Slot> output = new ArrayList<>();
    private final Map<Integer, Slot> byBlock = new HashMap<>();
    private Optional<ObjectNode> terminal = Optional.empty();

    public ResponsesStreamWriter(ResponsesHeader header, ResponsesIdSource ids) {
        this.header = header;
        this.names = ResponsesToolNames.fromEcho(header.echo().path("tools"));
        this.ids = ids;
    }

    /** The response object of the terminal event ({@code completed}, {@code incomplete} or {@code failed}). */
    public Optional<ObjectNode> terminalResponse() {
        return terminal.map(ObjectNode::deepCopy);
    }

    /**
     * The response as far as it got, with status {@code cancelled}, for a stream that ended without a
     * terminal event because the client went away: unfinished items are {@code incomplete}.
     */
    public ObjectNode cancelled() {
        return ResponsesObject.build(header, model, "cancelled", Optional.empty(), Optional.empty(), snapshot(),
                Optional.of(usage()));
    }

    @Override
    protected void start(StringBuilder out, StreamEvent.MessageStart s) {
        model = s.model();
        ObjectNode snapshot = ResponsesObject.build(header, model, "in_progress", Optional.empty(), Optional.empty(),
                List.of(), Optional.empty());
        emit(out, event("response.created").set("response", snapshot));
        emit(out, event("response.in_progress").set("response", snapshot.deepCopy()));
    }

    @Override
    protected void blockStart(StringBuilder out, int index, ContentBlock block) {
        Slot slot = switch (block) {
            case Text t -> new Slot(Kind.MESSAGE, ids.next("msg"), output.size(), t.signature());
            case ContentBlock.Refusal r -> new Slot(Kind.REFUSAL, ids.next("msg"), output.size(), Optional.empty());
            case Thinking t -> new Slot(Kind.REASONING, ids.next("rs"), output.size(), t.signature());
            case ToolCall c -> {
                boolean custom = names.origin(c.name()).filter(ResponsesToolNames.Origin::custom).isPresent();
                Slot s = new Slot(custom ? Kind.CUSTOM_CALL : Kind.CALL, ids.next(custom ? "ctc" : "fc"), output.size(),
                        c.signature());
                s.callId = c.id();
                s.name = c.name();
                s.names = names;
                yield s;
            }
            case RedactedThinking r -> {
                Slot s = new Slot(Kind.OPAQUE, ids.next("rs"), output.size(), Optional.empty());
                s.payload = Optional.of(new ResponsesReasoningPayload.Redacted(r.data(), r.origin()));
                yield s;
            }
            default -> null;
        };
        if (slot == null) {
            return;
        }
        output.add(slot);
        byBlock.put(index, slot);
        emit(out, event("response.output_item.added").put("output_index", slot.outputIndex)
                .set("item", ResponsesItemWriter.write(slot.item("in_progress"))));
        if (slot.kind == Kind.MESSAGE) {
            emit(out, slotEvent("response.content_part.added", slot).put("content_index", 0)
                    .set("part", ResponsesItemWriter.part(new ResponsesPart.OutputText(""))));
        } else if (slot.kind == Kind.REFUSAL) {
            emit(out, slotEvent("response.content_part.added", slot).put("content_index", 0)
                    .set("part", ResponsesItemWriter.part(new ResponsesPart.Refusal(""))));
        }
        String initial = switch (block) {
            case Text t -> t.text();
            case ContentBlock.Refusal r -> r.text();
            case Thinking t -> t.text();
            case ToolCall c -> c.argumentsJson();
            default -> "";
        };
        append(out, slot, initial);
    }

    @Override
    protected void blockDelta(StringBuilder out, int index, Delta delta) {
        Slot slot = byBlock.get(index);
        if (slot == null) {
            return;
        }
        switch (delta) {
            case Delta.TextDelta t -> append(out, slot, t.text());
            case Delta.ThinkingDelta t -> append(out, slot, t.text());
            case Delta.ArgumentsDelta a -> append(out, slot, a.partialJson());
            case Delta.SignatureDelta s -> slot.signature = Optional.of(s.signature());
            case Delta.LogprobsDelta l -> {
                if (slot.kind == Kind.MESSAGE && !l.tokens().isEmpty()) {
                    // Shown on a delta of their own (no text): they belong to text already or about to be sent.
                    slot.logprobs.addAll(l.tokens());
                    emit(out, slotEvent("response.output_text.delta", slot).put("content_index", 0).put("delta", "")
                            .set("logprobs", LogprobEntries.write(l.tokens())));
                }
            }
        }
    }

    private void append(StringBuilder out, Slot slot, String piece) {
        if (piece.isEmpty()) {
            return;
        }
        slot.text.append(piece);
        switch (slot.kind) {
            case MESSAGE -> emit(out, slotEvent("response.output_text.delta", slot).put("content_index", 0)
                    .put("delta", piece).set("logprobs", Json.array()));
            case REFUSAL -> emit(out, slotEvent("response.refusal.delta", slot).put("content_index", 0).put("delta", piece));
            case REASONING -> {
                if (!slot.summaryOpen) {
                    slot.summaryOpen = true;
                    emit(out, slotEvent("response.reasoning_summary_part.added", slot).put("summary_index", 0)
                            .set("part", ResponsesItemWriter.summaryText("")));
                }
                emit(out, slotEvent("response.reasoning_summary_text.delta", slot).put("summary_index", 0)
                        .put("delta", piece));
            }
            case CALL -> emit(out, slotEvent("response.function_call_arguments.delta", slot).put("delta", piece));
            case CUSTOM_CALL -> {
                // The pieces are JSON of {"input": ...}; the input itself is known whole at the end.
            }
            case OPAQUE -> {
                // Redacted reasoning has no text to stream.
            }
        }
    }

    private void finish(StringBuilder out, Slot slot) {
        String text = slot.text.toString();
        switch (slot.kind) {
            case MESSAGE -> {
                emit(out, slotEvent("response.output_text.done", slot).put("content_index", 0).put("text", text)
                        .set("logprobs", LogprobEntries.write(slot.logprobs)));
                emit(out, slotEvent("response.content_part.done", slot).put("content_index", 0)
                        .set("part", ResponsesItemWriter.part(new ResponsesPart.OutputText(text, slot.logprobs))));
            }
            case REFUSAL -> {
                emit(out, slotEvent("response.refusal.done", slot).put("content_index", 0).put("refusal", text));
                emit(out, slotEvent("response.content_part.done", slot).put("content_index", 0)
                        .set("part", ResponsesItemWriter.part(new ResponsesPart.Refusal(text))));
            }
            case REASONING -> {
                if (slot.summaryOpen) {
                    emit(out, slotEvent("response.reasoning_summary_text.done", slot).put("summary_index", 0)
                            .put("text", text));
                    emit(out, slotEvent("response.reasoning_summary_part.done", slot).put("summary_index", 0)
                            .set("part", ResponsesItemWriter.summaryText(text)));
                }
            }
            case CALL -> emit(out, slotEvent("response.function_call_arguments.done", slot)
                    .put("name", names.origin(slot.name).map(ResponsesToolNames.Origin::name).orElse(slot.name))
                    .put("arguments", text));
            case CUSTOM_CALL -> {
                String input = FreeformTools.inputOf(text);
                if (!input.isEmpty()) {
                    emit(out, slotEvent("response.custom_tool_call_input.delta", slot).put("delta", input));
                }
                emit(out, slotEvent("response.custom_tool_call_input.done", slot).put("input", input));
            }
            case OPAQUE -> { }
        }
        slot.done = true;
        emit(out, event("response.output_item.done").put("output_index", slot.outputIndex)
                .set("item", ResponsesItemWriter.write(slot.item("completed"))));
        // A signature that sat on a text or a call travels in a reasoning item right after it (see ResponsesOutputItems).
        if (slot.signature.isPresent() && (slot.kind == Kind.MESSAGE || slot.kind == Kind.CALL || slot.kind == Kind.CUSTOM_CALL)) {
            Signature sig = slot.signature.get();
            Slot carrier = new Slot(Kind.OPAQUE, ids.next("rs"), output.size(), Optional.empty());
            carrier.payload = Optional.of(slot.kind != Kind.MESSAGE ? new ResponsesReasoningPayload.OnCall(slot.callId, sig)
                    : new ResponsesReasoningPayload.OnText(sig));
            output.add(carrier);
            emit(out, event("response.output_item.added").put("output_index", carrier.outputIndex)
                    .set("item", ResponsesItemWriter.write(carrier.item("in_progress"))));
            carrier.done = true;
            emit(out, event("response.output_item.done").put("output_index", carrier.outputIndex)
                    .set("item", ResponsesItemWriter.write(carrier.item("completed"))));
        }
    }

    @Override
    protected void blockStop(StringBuilder out, int index) {
        Slot slot = byBlock.remove(index);
        if (slot != null) {
            finish(out, slot);
        }
    }

    @Override
    protected void messageStop(StringBuilder out) {
        for (Slot slot : List.copyOf(byBlock.values())) {
            finish(out, slot);
        }
        byBlock.clear();
        ResponsesOutcome outcome = ResponsesOutcome.of(stopReason(),
                output.stream().anyMatch(slot -> slot.kind == Kind.REFUSAL));
        ObjectNode response = ResponsesObject.build(header, model, outcome.status(), outcome.incompleteReason(),
                Optional.empty(), snapshot(), Optional.of(usage()));
        String type = outcome.status().equals("completed") ? "response.completed" : "response.incomplete";
        emit(out, event(type).set("response", response));
        terminal = Optional.of(response);
        markFinished();
    }

    @Override
    protected void error(StringBuilder out, GatewayError e) {
        ObjectNode error = event("error");
        error.put("code", Integer.toString(e.status()));
        error.put("message", e.message());
        error.put("param", e.param().orElse(null));
        // Flat, as OpenAI sends it: the SDKs turn any event with a top-level "error" object into an
        // exception, and the caller would then never see response.failed.
        emit(out, error);
        ObjectNode response = ResponsesObject.build(header, model, "failed", Optional.empty(), Optional.of(e), snapshot(),
                Optional.of(usage()));
        emit(out, event("response.failed").set("response", response));
        terminal = Optional.of(response);
        markFinished();
    }

    /** The output so far: finished items as they were sent, unfinished ones as {@code incomplete}. */
    private List<ResponsesItem> snapshot() {
        List<ResponsesItem> items = new ArrayList<>(output.size());
        for (Slot s : output) {
            items.add(s.item(s.done ? "completed" : "incomplete"));
        }
        return items;
    }

    private ObjectNode slotEvent(String type, Slot slot) {
        return event(type).put("item_id", slot.itemId).put("output_index", slot.outputIndex);
    }

    private static ObjectNode event(String type) {
        return Json.object().put("type", type);
    }

    private void emit(StringBuilder out, ObjectNode event) {
        event.put("sequence_number", sequence++);
        out.append(SseFrames.event(event.get("type").textValue(), Json.write(event)));
    }

    /** One output item under construction. */
    private static final class Slot {
        final Kind kind;
        final String itemId;
        final int outputIndex;
        final StringBuilder text = new StringBuilder();
        final List<TokenLogprob> logprobs = new ArrayList<>();
        Optional<Signature> signature;
        Optional<ResponsesReasoningPayload> payload = Optional.empty();
        String callId = "";
        String name = "";
        ResponsesToolNames names;
        boolean summaryOpen;
        boolean done;

        Slot(Kind kind, String itemId, int outputIndex, Optional<Signature> signature) {
            this.kind = kind;
            this.itemId = itemId;
            this.outputIndex = outputIndex;
            this.signature = signature;
        }

        ResponsesItem item(String status) {
            boolean adding = status.equals("in_progress");
            return switch (kind) {
                case MESSAGE -> new ResponsesItem.Message(Optional.of(itemId), ResponsesItem.Role.ASSISTANT,
                        adding ? List.of() : List.of(new ResponsesPart.OutputText(text.toString(), logprobs)), status);
                case REFUSAL -> new ResponsesItem.Message(Optional.of(itemId), ResponsesItem.Role.ASSISTANT,
                        adding ? List.of() : List.of(new ResponsesPart.Refusal(text.toString())), status);
                case REASONING -> ResponsesOutputItems.reasoning(itemId, new Thinking(adding ? "" : text.toString(),
                        adding ? Optional.empty() : signature));
                case CALL, CUSTOM_CALL -> ResponsesOutputItems.callWithId(callId, name,
                        adding ? (kind == Kind.CALL ? "" : FreeformTools.argumentsOf("")) : text.toString(), status, names,
                        itemId);
                case OPAQUE -> new ResponsesItem.Reasoning(Optional.of(itemId), List.of(), List.of(),
                        payload.map(ResponsesReasoningPayload::encode));
            };
        }
    }
}
