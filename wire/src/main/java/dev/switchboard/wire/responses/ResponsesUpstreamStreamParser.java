package dev.switchboard.wire.responses;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.StreamEvent.Delta;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.Usage;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.UpstreamStreamParser;
import dev.switchboard.wire.internal.FreeformTools;
import dev.switchboard.wire.internal.LogprobEntries;
import dev.switchboard.wire.internal.StreamProgress;
import dev.switchboard.wire.internal.UpstreamEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Turns the named-event stream of a Responses upstream into canonical events.
 *
 * <p>Contract: one instance per stream, not thread-safe. {@link #onEvent} takes one SSE event (its
 * {@code event:} name, if any, and its data) and returns zero or more canonical events; {@link #onEnd}
 * is called once when the body ended. The payload's {@code type} decides what an event is (the
 * {@code event:} name only when the payload has none); event types this code does not know are ignored.
 *
 * <ul>
 *   <li>{@code response.created} gives {@code MessageStart} (no content yet, so the engine may still fail
 *       over if the response fails before its first block).</li>
 *   <li>Blocks are numbered in the order they open: a {@code reasoning} or {@code function_call} item is
 *       one block from {@code output_item.added} to {@code output_item.done}; each content part of a
 *       {@code message} item is one block from {@code content_part.added} to {@code content_part.done}: a
 *       Text block for {@code output_text}, a Refusal block for {@code refusal} (whose text stop sequences
 *       leave alone: they apply to answers).</li>
 *   <li>The {@code logprobs} of an {@code output_text.delta} are a LogprobsDelta on its block.</li>
 *   <li>Summary and raw reasoning text deltas are ThinkingDeltas, summary parts separated by a blank line
 *       (as {@link ResponsesUpstreamResponseReader} joins them); the item's {@code encrypted_content},
 *       known at {@code output_item.done}, is a SignatureDelta of origin {@code responses} just before the
 *       block stops.</li>
 *   <li>A function call starts with its {@code call_id} and name and empty arguments;
 *       {@code function_call_arguments.delta}s are ArgumentsDeltas. A {@code custom_tool_call} is a call
 *       too: its {@code custom_tool_call_input.delta}s are ArgumentsDeltas of the canonical arguments
 *       holding the free-text input as one string ({@link FreeformTools}), which end when the item
 *       does.</li>
 *   <li>Text a server only gives in a {@code .done} event or in the finished item (no deltas) is sent as one
 *       delta there, so nothing of the answer is lost.</li>
 *   <li>{@code response.completed} and {@code response.incomplete} give {@code MessageDelta} (stop reason
 *       and the response's usage) and {@code MessageStop}; {@code response.failed} and the {@code error}
 *       event give a {@code StreamError} ({@link ResponsesUpstreamErrors#fromInBand}). Nothing after the
 *       first of these counts.</li>
 *   <li>A payload that is not JSON, or a body that ends after {@code response.created} without a terminal
 *       event, gives a retryable 502 {@code StreamError}; a body that ends before it gives nothing, so the
 *       engine sees a stream that never began.</li>
 * </ul>
 * Stop sequences, which the format cannot send, are applied to the answer text
 * ({@link ResponsesStopSequences}): text from a stop string on never leaves the parser, later blocks are
 * dropped, and the stream still ends with the upstream's usage, reporting STOP_SEQUENCE.
 */
public final class ResponsesUpstreamStreamParser implements UpstreamStreamParser {
    private enum Kind { TEXT, REFUSAL, REASONING, CALL, CUSTOM_CALL }

    private static final class Open {
        final int index;
        final Kind kind;
        boolean streamed;
        boolean textSeen;
        /** A custom call's arguments were sent whole, so there is no string left open to close. */
        boolean argumentsWhole;

        Open(int index, Kind kind) {
            this.index = index;
            this.kind = kind;
        }
    }

    private final ResponsesStopSequences stops;
    private final Map<String, Open> open = new HashMap<>();
    /** Every block key ever opened, so a finished item's content is not sent a second time. */
    private final Set<String> seen = new HashSet<>();
    private int nextIndex;
    private final StreamProgress progress = new StreamProgress();
    private boolean called;
    private boolean refused;

    /** A parser applying {@code stopSequences} (empty: none) to the answer text. */
    public ResponsesUpstreamStreamParser(List<String> stopSequences) {
        this.stops = new ResponsesStopSequences(stopSequences);
    }

    @Override
    public List<StreamEvent> onEvent(Optional<String> eventName, String data) {
        if (data.strip().equals("[DONE]")) {
            return List.of();
        }
        return progress.onEvent(eventName, data, "The Responses upstream", this::translate);
    }

    private List<StreamEvent> translate(UpstreamEvent event) {
        JsonNode payload = event.payload();
        List<StreamEvent> out = new ArrayList<>(2);
        switch (event.type()) {
            case "response.created", "response.in_progress", "response.queued" -> start(payload.path("response"), out);
            case "response.output_item.added" -> itemAdded(payload, out);
            case "response.content_part.added" -> partAdded(payload, out);
            case "response.output_text.delta" -> {
                text(payload, payload.path("delta").asText(""), false, out);
                logprobs(payload, out);
            }
            case "response.refusal.delta" -> text(payload, payload.path("delta").asText(""), true, out);
            case "response.output_text.done" -> textDone(payload, payload.path("text").asText(""), false, out);
            case "response.refusal.done" -> textDone(payload, payload.path("refusal").asText(""), true, out);
            case "response.content_part.done" -> close(key(payload), out);
            case "response.reasoning_summary_part.added" -> summaryPart(payload, out);
            case "response.reasoning_summary_text.delta", "response.reasoning_text.delta" -> thinking(payload, out);
            case "response.function_call_arguments.delta" -> arguments(payload, payload.path("delta").asText(""), out);
            case "response.function_call_arguments.done" -> argumentsDone(payload, out);
            case "response.custom_tool_call_input.delta" -> customInput(payload, payload.path("delta").asText(""), out);
            case "response.custom_tool_call_input.done" -> customInputDone(payload, payload.path("input").asText(""), out);
            case "response.output_item.done" -> itemDone(payload, out);
            case "response.completed", "response.incomplete" -> finish(payload.path("response"), out);
            case "response.failed" -> {
                JsonNode error = payload.path("response").path("error");
                return progress.fail(ResponsesUpstreamErrors.fromInBand(error.isObject() ? error
                        : Json.object().put("code", "server_error").put("message", "The upstream's response failed.")));
            }
            case "error" -> {
                return progress.fail(ResponsesUpstreamErrors.fromInBand(payload));
            }
            default -> { } // in-progress notices, annotations and event types newer than this code
        }
        return out;
    }

    @Override
    public List<StreamEvent> onEnd() {
        return progress.end("The Responses upstream ended the stream before response.completed.");
    }

    private void start(JsonNode response, List<StreamEvent> out) {
        if (progress.start()) {
            out.add(new StreamEvent.MessageStart(response.path("id").asText(""), response.path("model").asText(""),
                    Usage.EMPTY));
        }
    }

    private static String key(JsonNode payload) {
        return payload.path("output_index").asInt() + ":" + payload.path("content_index").asInt(-1);
    }

    private static String itemKey(JsonNode payload) {
        return payload.path("output_index").asInt() + ":-1";
    }

    /** Whether content must be dropped: a stop string ended the answer. */
    private boolean cut() {
        return stops.hit().isPresent();
    }

    private Optional<Open> openBlock(String key, Kind kind, ContentBlock start, List<StreamEvent> out) {
        if (cut()) {
            return Optional.empty();
        }
        start(Json.object(), out);
        Open block = open.get(key);
        if (block == null) {
            block = new Open(nextIndex++, kind);
            open.put(key, block);
            seen.add(key);
            out.add(new StreamEvent.BlockStart(block.index, start));
        }
        return Optional.of(block);
    }

    private void itemAdded(JsonNode payload, List<StreamEvent> out) {
        JsonNode item = payload.path("item");
        switch (item.path("type").asText("")) {
            case "reasoning" -> openBlock(itemKey(payload), Kind.REASONING, ContentBlock.Thinking.of(""), out);
            case "function_call" -> openCall(payload, item, out);
            case "custom_tool_call" -> openCustomCall(payload, item, out);
            default -> { } // a message opens a block per content part; other items are not the gateway's
        }
    }

    private Optional<Open> openCall(JsonNode payload, JsonNode item, List<StreamEvent> out) {
        return openBlock(itemKey(payload), Kind.CALL, ContentBlock.ToolCall.of(item.path("call_id").asText(""),
                item.path("name").asText(""), ""), out);
    }

    private Optional<Open> openCustomCall(JsonNode payload, JsonNode item, List<StreamEvent> out) {
        return openBlock(itemKey(payload), Kind.CUSTOM_CALL, ContentBlock.ToolCall.of(item.path("call_id").asText(""),
                item.path("name").asText(""), ""), out);
    }

    /**
     * A piece of a custom call's free-text input, as a piece of its canonical arguments: the first piece
     * opens the one string argument, {@link #close} ends it.
     */
    private void customInput(JsonNode payload, String delta, List<StreamEvent> out) {
        Open block = open.get(itemKey(payload));
        if (block == null || block.kind != Kind.CUSTOM_CALL || delta.isEmpty()) {
            return;
        }
        String piece = (block.streamed ? "" : FreeformTools.opening()) + FreeformTools.escaped(delta);
        block.streamed = true;
        out.add(new StreamEvent.BlockDelta(block.index, new Delta.ArgumentsDelta(piece)));
    }

    /** The whole input, when no piece of it was streamed (an empty input included). */
    private void customInputDone(JsonNode payload, String input, List<StreamEvent> out) {
        Open block = open.get(itemKey(payload));
        if (block != null && block.kind == Kind.CUSTOM_CALL && !block.streamed) {
            block.streamed = true;
            block.argumentsWhole = true;
            out.add(new StreamEvent.BlockDelta(block.index, new Delta.ArgumentsDelta(FreeformTools.argumentsOf(input))));
        }
    }

    private void partAdded(JsonNode payload, List<StreamEvent> out) {
        String type = payload.path("part").path("type").asText("");
        if (type.equals("output_text") || type.equals("refusal")) {
            boolean refusal = type.equals("refusal");
            refused |= refusal;
            openBlock(key(payload), refusal ? Kind.REFUSAL : Kind.TEXT,
                    refusal ? new ContentBlock.Refusal("") : ContentBlock.Text.of(""), out);
        }
    }

    private void text(JsonNode payload, String delta, boolean refusal, List<StreamEvent> out) {
        refused |= refusal;
        Optional<Open> block = openBlock(key(payload), refusal ? Kind.REFUSAL : Kind.TEXT,
                refusal ? new ContentBlock.Refusal("") : ContentBlock.Text.of(""), out);
        if (block.isEmpty()) {
            return;
        }
        block.get().streamed = true;
        if (block.get().kind == Kind.REFUSAL) {
            if (!delta.isEmpty()) {
                out.add(new StreamEvent.BlockDelta(block.get().index, new Delta.TextDelta(delta)));
            }
            return;
        }
        ResponsesStopSequences.Fed fed = stops.feed(delta);
        if (!fed.text().isEmpty()) {
            out.add(new StreamEvent.BlockDelta(block.get().index, new Delta.TextDelta(fed.text())));
        }
        if (fed.stop().isPresent()) {
            // The answer ends here: close what is open; later content is dropped.
            for (Open o : List.copyOf(open.values())) {
                out.add(new StreamEvent.BlockStop(o.index));
            }
            open.clear();
        }
    }

    /** A text delta's {@code logprobs}, on its block (unless a stop string ended the answer). */
    private void logprobs(JsonNode payload, List<StreamEvent> out) {
        List<dev.switchboard.model.TokenLogprob> tokens = LogprobEntries.read(payload.path("logprobs"));
        Open block = open.get(key(payload));
        if (!tokens.isEmpty() && block != null && block.kind == Kind.TEXT && !cut()) {
            out.add(new StreamEvent.BlockDelta(block.index, new Delta.LogprobsDelta(tokens)));
        }
    }

    private void textDone(JsonNode payload, String whole, boolean refusal, List<StreamEvent> out) {
        Open block = open.get(key(payload));
        if ((block == null || !block.streamed) && !whole.isEmpty()) {
            text(payload, whole, refusal, out);
        }
    }

    private void summaryPart(JsonNode payload, List<StreamEvent> out) {
        Optional<Open> block = openBlock(itemKey(payload), Kind.REASONING, ContentBlock.Thinking.of(""), out);
        if (block.isPresent() && block.get().textSeen) {
            out.add(new StreamEvent.BlockDelta(block.get().index, new Delta.ThinkingDelta("\n\n")));
        }
    }

    private void thinking(JsonNode payload, List<StreamEvent> out) {
        String delta = payload.path("delta").asText("");
        Optional<Open> block = openBlock(itemKey(payload), Kind.REASONING, ContentBlock.Thinking.of(""), out);
        if (block.isPresent() && !delta.isEmpty()) {
            block.get().streamed = true;
            block.get().textSeen = true;
            out.add(new StreamEvent.BlockDelta(block.get().index, new Delta.ThinkingDelta(delta)));
        }
    }

    private void arguments(JsonNode payload, String delta, List<StreamEvent> out) {
        Open block = open.get(itemKey(payload));
        if (block == null || block.kind != Kind.CALL || delta.isEmpty()) {
            return;
        }
        block.streamed = true;
        out.add(new StreamEvent.BlockDelta(block.index, new Delta.ArgumentsDelta(delta)));
    }

    private void argumentsDone(JsonNode payload, List<StreamEvent> out) {
        Open block = open.get(itemKey(payload));
        if (block != null && !block.streamed) {
            arguments(payload, payload.path("arguments").asText(""), out);
        }
    }

    private void itemDone(JsonNode payload, List<StreamEvent> out) {
        JsonNode item = payload.path("item");
        String k = itemKey(payload);
        switch (item.path("type").asText("")) {
            case "reasoning" -> {
                Optional<Open> block = openBlock(k, Kind.REASONING, ContentBlock.Thinking.of(""), out);
                if (block.isEmpty()) {
                    return;
                }
                if (!block.get().streamed) {
                    String text = ResponsesUpstreamResponseReader.thinking(item).text();
                    if (!text.isEmpty()) {
                        out.add(new StreamEvent.BlockDelta(block.get().index, new Delta.ThinkingDelta(text)));
                    }
                }
                ResponsesUpstreamResponseReader.signature(item).ifPresent(s ->
                        out.add(new StreamEvent.BlockDelta(block.get().index, new Delta.SignatureDelta(s))));
                close(k, out);
            }
            case "function_call" -> {
                called |= !cut();
                Optional<Open> block = openCall(payload, item, out);
                if (block.isPresent() && !block.get().streamed) {
                    arguments(payload, item.path("arguments").asText(""), out);
                }
                close(k, out);
            }
            case "custom_tool_call" -> {
                called |= !cut();
                openCustomCall(payload, item, out);
                customInputDone(payload, item.path("input").asText(""), out);
                close(k, out);
            }
            case "message" -> messageDone(payload, item, out);
            default -> { }
        }
    }

    /** Closes the message's parts; a server that sent no part events gets its parts read from the item. */
    private void messageDone(JsonNode payload, JsonNode item, List<StreamEvent> out) {
        int outputIndex = payload.path("output_index").asInt();
        JsonNode parts = item.path("content");
        for (int i = 0; i < parts.size(); i++) {
            String k = outputIndex + ":" + i;
            JsonNode part = parts.get(i);
            boolean refusal = part.path("type").asText("").equals("refusal");
            String whole = refusal ? part.path("refusal").asText("") : part.path("text").asText("");
            if (!seen.contains(k) && !whole.isEmpty() && !cut()) {
                text(Json.object().put("output_index", outputIndex).put("content_index", i), whole, refusal, out);
            }
            close(k, out);
        }
        String prefix = outputIndex + ":";
        for (String k : List.copyOf(open.keySet())) {
            if (k.startsWith(prefix) && !k.endsWith(":-1")) {
                close(k, out);
            }
        }
    }

    private void close(String key, List<StreamEvent> out) {
        Open block = open.remove(key);
        if (block == null) {
            return;
        }
        if (block.kind == Kind.TEXT) {
            String held = stops.flush();
            if (!held.isEmpty()) {
                out.add(new StreamEvent.BlockDelta(block.index, new Delta.TextDelta(held)));
            }
        }
        if (block.kind == Kind.CUSTOM_CALL) {
            if (!block.streamed) {
                out.add(new StreamEvent.BlockDelta(block.index, new Delta.ArgumentsDelta(FreeformTools.argumentsOf(""))));
            } else if (!block.argumentsWhole) {
                out.add(new StreamEvent.BlockDelta(block.index, new Delta.ArgumentsDelta(FreeformTools.closing())));
            }
        }
        out.add(new StreamEvent.BlockStop(block.index));
    }

    private void finish(JsonNode response, List<StreamEvent> out) {
        start(response, out);
        for (String k : List.copyOf(open.keySet())) {
            close(k, out);
        }
        Usage usage = response.path("usage").isObject() ? ResponsesUpstreamResponseReader.usage(response.path("usage"))
                : Usage.EMPTY.withProvenance(Usage.Provenance.ESTIMATED);
        StopReason reason = cut() ? StopReason.STOP_SEQUENCE : ResponsesUpstreamResponseReader.stopReason(
                response.path("status").asText("completed"), response.path("incomplete_details").path("reason").asText(""),
                called, refused);
        out.add(new StreamEvent.MessageDelta(reason, stops.hit(), usage));
        out.add(new StreamEvent.MessageStop());
        progress.finish();
    }
}
