package dev.switchboard.engine.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.engine.tokens.TokenEstimator;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.Message;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.ResponseFormat;
import dev.switchboard.model.Role;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.ToolChoice;
import dev.switchboard.model.ToolSpec;
import dev.switchboard.model.Usage;
import dev.switchboard.wire.Json;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * The in-process {@code simulator} provider: deterministic answers with no network, so the first run of
 * the gateway works offline and every client format can be tried end to end. It answers through the
 * same canonical path as real providers: text that echoes the last user turn, a tool call when tools
 * are offered (arguments filled from the schema's required properties), a reasoning trace when reasoning
 * is asked for, JSON when a JSON response format is requested, and honours {@code max_tokens} and stop
 * sequences. The same request always yields the same answer.
 */
public final class SimulatorAdapter implements ProviderAdapter {
    private static final int ECHO_LIMIT = 200;

    @Override
    public ChatResponse complete(Attempt attempt) {
        return answer(attempt.request(), attempt.upstreamModel());
    }

    @Override
    public EventSource stream(Attempt attempt) {
        ChatResponse r = answer(attempt.request(), attempt.upstreamModel());
        List<StreamEvent> events = new ArrayList<>();
        events.add(new StreamEvent.MessageStart(r.id(), r.model(),
                new Usage(r.usage().inputTokens(), 0, 0, 0, 0, 0, Usage.Provenance.REPORTED)));
        int index = 0;
        for (ContentBlock b : r.content()) {
            switch (b) {
                case ContentBlock.Thinking t -> {
                    events.add(new StreamEvent.BlockStart(index, ContentBlock.Thinking.of("")));
                    for (String piece : pieces(t.text())) {
                        events.add(new StreamEvent.BlockDelta(index, new StreamEvent.Delta.ThinkingDelta(piece)));
                    }
                }
                case ContentBlock.Text t -> {
                    events.add(new StreamEvent.BlockStart(index, ContentBlock.Text.of("")));
                    for (String piece : pieces(t.text())) {
                        events.add(new StreamEvent.BlockDelta(index, new StreamEvent.Delta.TextDelta(piece)));
                    }
                }
                case ContentBlock.ToolCall c -> {
                    events.add(new StreamEvent.BlockStart(index, ContentBlock.ToolCall.of(c.id(), c.name(), "")));
                    String args = c.argumentsJson();
                    int half = args.length() / 2;
                    events.add(new StreamEvent.BlockDelta(index, new StreamEvent.Delta.ArgumentsDelta(args.substring(0, half))));
                    events.add(new StreamEvent.BlockDelta(index, new StreamEvent.Delta.ArgumentsDelta(args.substring(half))));
                }
                default -> throw new IllegalStateException("the simulator does not produce " + b.getClass().getSimpleName());
            }
            events.add(new StreamEvent.BlockStop(index));
            index++;
        }
        events.add(new StreamEvent.MessageDelta(r.stopReason(), r.stopSequence(), r.usage()));
        events.add(new StreamEvent.MessageStop());
        return EventSource.of(events);
    }

    /** Splits text into word-sized pieces that concatenate back to it. */
    private static List<String> pieces(String text) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 1; i <= text.length(); i++) {
            if (i == text.length() || text.charAt(i) == ' ') {
                out.add(text.substring(start, i));
                start = i;
            }
        }
        return out;
    }

    private ChatResponse answer(ChatRequest request, String upstreamModel) {
        long input = TokenEstimator.ofPrompt(request);
        String id = "sim-" + Integer.toHexString(Math.abs(request.messages().hashCode()));
        List<ContentBlock> content = new ArrayList<>();
        long reasoningTokens = 0;
        boolean think = request.reasoning().requested()
                && request.reasoning().mode().orElse(Reasoning.Mode.ON) != Reasoning.Mode.OFF
                && request.reasoning().effort().orElse(Reasoning.Effort.MEDIUM) != Reasoning.Effort.NONE;
        if (think) {
            String trace = "The user wrote: \"" + clip(lastUserText(request)) + "\". I will answer briefly.";
            content.add(ContentBlock.Thinking.of(trace));
            reasoningTokens = TokenEstimator.ofText(trace);
        }
        Optional<ToolSpec> tool = toolToCall(request);
        if (tool.isPresent()) {
            ToolSpec t = tool.get();
            content.add(ContentBlock.ToolCall.of("call_sim_" + Integer.toHexString(Math.abs((t.name() + id).hashCode())),
                    t.name(), argumentsFor(t.parameters()).toString()));
            long output = reasoningTokens + 10;
            return new ChatResponse(id, upstreamModel, content, StopReason.TOOL_USE, Optional.empty(),
                    new Usage(input, output, reasoningTokens, 0, 0, 0, Usage.Provenance.REPORTED));
        }
        String text = textFor(request, upstreamModel);
        StopReason stop = StopReason.END_TURN;
        Optional<String> stopSequence = Optional.empty();
        for (String s : request.stop()) {
            int at = text.indexOf(s);
            if (!s.isEmpty() && at >= 0) {
                text = text.substring(0, at);
                stop = StopReason.STOP_SEQUENCE;
                stopSequence = Optional.of(s);
            }
        }
        String[] words = text.split(" ");
        int limit = request.maxTokens().orElse(Integer.MAX_VALUE);
        if (words.length > limit) {
            text = String.join(" ", java.util.Arrays.copyOf(words, Math.max(0, limit)));
            stop = StopReason.MAX_TOKENS;
            stopSequence = Optional.empty();
        }
        content.add(ContentBlock.Text.of(text));
        long output = reasoningTokens + Math.min(words.length, limit);
        return new ChatResponse(id, upstreamModel, content, stop, stopSequence,
                new Usage(input, output, reasoningTokens, 0, 0, 0, Usage.Provenance.REPORTED));
    }

    private static String textFor(ChatRequest request, String model) {
        Message last = request.messages().isEmpty() ? Message.user("") : request.messages().getLast();
        if (request.endsWithPrefill()) {
            return " (continued by the simulator)";
        }
        for (ContentBlock b : last.content()) {
            if (b instanceof ContentBlock.ToolResult r) {
                return "The tool " + r.name().orElse("call") + " returned: " + clip(r.text());
            }
        }
        String said = clip(lastUserText(request));
        if (!(request.responseFormat() instanceof ResponseFormat.Text)) {
            ObjectNode o = Json.object();
            o.put("model", model);
            o.put("echo", said);
            return o.toString();
        }
        long images = last.content().stream().filter(b -> b instanceof ContentBlock.Image).count();
        return "Hello from the Switchboard simulator (" + model + ")! You said: " + said
                + (images > 0 ? " [" + images + " image(s) received]" : "");
    }

    private static String lastUserText(ChatRequest request) {
        for (Iterator<Message> it = request.messages().reversed().iterator(); it.hasNext(); ) {
            Message m = it.next();
            if (m.role() == Role.USER && !m.text().isEmpty()) {
                return m.text();
            }
        }
        return "";
    }

    private static String clip(String s) {
        return s.length() <= ECHO_LIMIT ? s : s.substring(0, ECHO_LIMIT) + "...";
    }

    private static Optional<ToolSpec> toolToCall(ChatRequest request) {
        if (request.tools().isEmpty() || request.toolChoice() instanceof ToolChoice.None) {
            return Optional.empty();
        }
        Message last = request.messages().isEmpty() ? Message.user("") : request.messages().getLast();
        boolean answeringResult = last.content().stream().anyMatch(b -> b instanceof ContentBlock.ToolResult);
        if (answeringResult || last.role() != Role.USER) {
            return Optional.empty();
        }
        if (request.toolChoice() instanceof ToolChoice.Named n) {
            return request.tools().stream().filter(t -> t.name().equals(n.name())).findFirst();
        }
        return Optional.of(request.tools().getFirst());
    }

    /** Fills each required property with a plausible value of its type. */
    private static ObjectNode argumentsFor(JsonNode schema) {
        ObjectNode args = Json.object();
        JsonNode props = schema.path("properties");
        for (JsonNode req : schema.path("required")) {
            String name = req.asText();
            JsonNode p = props.path(name);
            switch (p.path("type").asText("string")) {
                case "integer", "number" -> args.put(name, 1);
                case "boolean" -> args.put(name, true);
                case "array" -> args.putArray(name);
                case "object" -> args.putObject(name);
                default -> {
                    JsonNode en = p.path("enum");
                    args.put(name, en.isArray() && !en.isEmpty() ? en.get(0).asText() : "Paris");
                }
            }
        }
        return args;
    }

}
