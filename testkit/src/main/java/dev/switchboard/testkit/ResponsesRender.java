package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Renders a {@link Reply} as the Responses API does: one {@code response} object, or its named-event
 * stream, every event with {@code sequence_number} from 0: {@code response.created},
 * {@code response.in_progress}, per output item {@code response.output_item.added}, its content events
 * and {@code response.output_item.done}, then {@code response.completed} (or {@code response.incomplete}
 * when the answer was cut at {@code max_output_tokens}) carrying the whole response and its usage.
 *
 * <p>Output items, in order: a {@code reasoning} item when the answer reasons, its summary present only when
 * the request asked for one and its {@code encrypted_content} ({@link FakeSignatures#encrypt}) only when the
 * request included it; then a {@code message} with one {@code output_text} part (a {@code refusal} part
 * for {@code -refusal}), or one {@code function_call} per call whose arguments stream in two or three
 * slices ({@code custom_tool_call} with its free-text {@code input}, streamed the same way, for a call of a
 * custom tool). Usage: {@code input_tokens} with {@code cached_tokens} inside, {@code output_tokens} with
 * {@code reasoning_tokens} inside.
 */
final class ResponsesRender {

    /** One SSE event: its name and payload (whose {@code type} equals the name). */
    record Frame(String event, ObjectNode data) {
    }

    private final String id;
    private final String model;
    private final boolean summary;
    private final boolean encrypted;
    private final boolean refusal;
    private final Set<String> customTools;
    private int sequence;

    ResponsesRender(String id, String model, boolean summary, boolean encrypted, boolean refusal, Set<String> customTools) {
        this.id = id;
        this.model = model;
        this.summary = summary;
        this.encrypted = encrypted;
        this.refusal = refusal;
        this.customTools = Set.copyOf(customTools);
    }

    /** The whole response object. */
    ObjectNode response(Reply reply) {
        ScriptedAnswer answer = reply.answer();
        ObjectNode response = header(answer.finish() == ScriptedAnswer.Finish.LENGTH ? "incomplete" : "completed");
        ArrayNode output = response.putArray("output");
        items(answer).forEach(output::add);
        response.set("usage", usage(reply.usage()));
        return response;
    }

    /** Every event of the stream, in order. */
    List<Frame> events(Reply reply) {
        sequence = 0;
        ScriptedAnswer answer = reply.answer();
        List<Frame> frames = new ArrayList<>();
        ObjectNode started = header("in_progress");
        started.putArray("output");
        started.putNull("usage");
        frames.add(frame("response.created", TestkitJson.object().set("response", started.deepCopy())));
        frames.add(frame("response.in_progress", TestkitJson.object().set("response", started.deepCopy())));
        List<ObjectNode> items = items(answer);
        for (int index = 0; index < items.size(); index++) {
            itemEvents(index, items.get(index), answer, frames);
        }
        ObjectNode whole = response(reply);
        frames.add(frame(whole.path("status").asText().equals("incomplete") ? "response.incomplete" : "response.completed",
                TestkitJson.object().set("response", whole)));
        return frames;
    }

    private Frame frame(String type, ObjectNode data) {
        return frame(type, data, sequence++);
    }

    /** An event with the given sequence number (for the faults that end a stream early). */
    static Frame frame(String type, ObjectNode data, int sequenceNumber) {
        ObjectNode payload = TestkitJson.object().put("type", type).put("sequence_number", sequenceNumber);
        payload.setAll(data);
        return new Frame(type, payload);
    }

    private ObjectNode header(String status) {
        ObjectNode r = TestkitJson.object().put("id", id).put("object", "response").put("created_at", 1_751_642_570L)
                .put("status", status).put("background", false).putNull("error");
        if (status.equals("incomplete")) {
            r.putObject("incomplete_details").put("reason", "max_output_tokens");
        } else {
            r.putNull("incomplete_details");
        }
        r.putNull("instructions").putNull("max_output_tokens").put("model", model).put("parallel_tool_calls", true)
                .putNull("previous_response_id").put("store", false).put("temperature", 1.0).put("tool_choice", "auto")
                .put("top_p", 1.0).put("truncation", "disabled");
        r.putArray("tools");
        r.putObject("text").putObject("format").put("type", "text");
        r.putObject("reasoning").putNull("effort").putNull("summary");
        r.putObject("metadata");
        return r;
    }

    private List<ObjectNode> items(ScriptedAnswer answer) {
        List<ObjectNode> items = new ArrayList<>();
        if (!answer.reasoning().isEmpty()) {
            String trace = ScriptedAnswer.join(answer.reasoning());
            ObjectNode reasoning = TestkitJson.object().put("id", "rs_" + id).put("type", "reasoning");
            ArrayNode parts = reasoning.putArray("summary");
            if (summary) {
                parts.addObject().put("type", "summary_text").put("text", trace);
            }
            if (encrypted) {
                reasoning.put("encrypted_content", FakeSignatures.encrypt(trace));
            }
            items.add(reasoning);
        }
        switch (answer) {
            case ScriptedAnswer.Text text -> {
                ObjectNode message = TestkitJson.object().put("id", "msg_" + id).put("type", "message")
                        .put("status", answer.finish() == ScriptedAnswer.Finish.LENGTH ? "incomplete" : "completed")
                        .put("role", "assistant");
                message.putArray("content").add(part(text.text()));
                items.add(message);
            }
            case ScriptedAnswer.ToolCalls calls -> calls.calls().forEach(call -> items.add(customTools.contains(call.name())
                    ? TestkitJson.object().put("id", "ctc_fake_" + call.sequence()).put("type", "custom_tool_call")
                            .put("status", "completed").put("call_id", OpenAiRender.callId(call)).put("name", call.name())
                            .put("input", customInput(call.arguments()))
                    : TestkitJson.object().put("id", "fc_fake_" + call.sequence()).put("type", "function_call")
                            .put("status", "completed").put("arguments", call.arguments())
                            .put("call_id", OpenAiRender.callId(call)).put("name", call.name())));
        }
        return items;
    }

    /** A custom call's free-text input: the generator's one string argument ({@link ResponsesCreateBody#customTools}). */
    private static String customInput(String arguments) {
        JsonNode input = TestkitJson.parseOrMissing(arguments.getBytes(StandardCharsets.UTF_8)).path(ResponsesCreateBody.CUSTOM_INPUT);
        return input.isTextual() ? input.asText() : arguments;
    }

    private ObjectNode part(String text) {
        if (refusal) {
            return TestkitJson.object().put("type", "refusal").put("refusal", text);
        }
        ObjectNode part = TestkitJson.object().put("type", "output_text");
        part.putArray("annotations");
        part.putArray("logprobs");
        return part.put("text", text);
    }

    private void itemEvents(int index, ObjectNode item, ScriptedAnswer answer, List<Frame> frames) {
        String itemId = item.path("id").asText();
        ObjectNode added = item.deepCopy();
        switch (item.path("type").asText()) {
            case "reasoning" -> {
                added.putArray("summary");
                added.remove("encrypted_content");
                frames.add(frame("response.output_item.added", TestkitJson.object().put("output_index", index).set("item", added)));
                if (summary) {
                    ObjectNode part = TestkitJson.object().put("type", "summary_text").put("text", "");
                    frames.add(frame("response.reasoning_summary_part.added", located(itemId, index).put("summary_index", 0)
                            .set("part", part)));
                    for (String piece : answer.reasoning()) {
                        frames.add(frame("response.reasoning_summary_text.delta", located(itemId, index).put("summary_index", 0)
                                .put("delta", piece)));
                    }
                    String trace = ScriptedAnswer.join(answer.reasoning());
                    frames.add(frame("response.reasoning_summary_text.done", located(itemId, index).put("summary_index", 0)
                            .put("text", trace)));
                    frames.add(frame("response.reasoning_summary_part.done", located(itemId, index).put("summary_index", 0)
                            .set("part", part.deepCopy().put("text", trace))));
                }
            }
            case "message" -> {
                added.putArray("content");
                added.put("status", "in_progress");
                frames.add(frame("response.output_item.added", TestkitJson.object().put("output_index", index).set("item", added)));
                String text = answer instanceof ScriptedAnswer.Text t ? t.text() : "";
                frames.add(frame("response.content_part.added", located(itemId, index).put("content_index", 0)
                        .set("part", part(""))));
                String deltaType = refusal ? "response.refusal.delta" : "response.output_text.delta";
                for (String piece : answer instanceof ScriptedAnswer.Text t ? t.pieces() : List.<String>of()) {
                    ObjectNode delta = located(itemId, index).put("content_index", 0).put("delta", piece);
                    if (!refusal) {
                        delta.putArray("logprobs");
                    }
                    frames.add(frame(deltaType, delta));
                }
                ObjectNode done = located(itemId, index).put("content_index", 0);
                if (refusal) {
                    frames.add(frame("response.refusal.done", done.put("refusal", text)));
                } else {
                    done.putArray("logprobs");
                    frames.add(frame("response.output_text.done", done.put("text", text)));
                }
                frames.add(frame("response.content_part.done", located(itemId, index).put("content_index", 0)
                        .set("part", part(text))));
            }
            case "function_call" -> {
                added.put("arguments", "").put("status", "in_progress");
                frames.add(frame("response.output_item.added", TestkitJson.object().put("output_index", index).set("item", added)));
                for (String slice : AnthropicRender.slices(item.path("arguments").asText())) {
                    if (!slice.isEmpty()) {
                        frames.add(frame("response.function_call_arguments.delta", located(itemId, index).put("delta", slice)));
                    }
                }
                frames.add(frame("response.function_call_arguments.done", located(itemId, index)
                        .put("name", item.path("name").asText()).put("arguments", item.path("arguments").asText())));
            }
            case "custom_tool_call" -> {
                added.put("input", "").put("status", "in_progress");
                frames.add(frame("response.output_item.added", TestkitJson.object().put("output_index", index).set("item", added)));
                String input = item.path("input").asText();
                for (String slice : AnthropicRender.slices(input)) {
                    if (!slice.isEmpty()) {
                        frames.add(frame("response.custom_tool_call_input.delta", located(itemId, index).put("delta", slice)));
                    }
                }
                frames.add(frame("response.custom_tool_call_input.done", located(itemId, index).put("input", input)));
            }
            default -> throw new IllegalStateException("no events for item " + item);
        }
        frames.add(frame("response.output_item.done", TestkitJson.object().put("output_index", index).set("item", item)));
    }

    private static ObjectNode located(String itemId, int index) {
        return TestkitJson.object().put("item_id", itemId).put("output_index", index);
    }

    static ObjectNode usage(ScriptedUsage usage) {
        ObjectNode u = TestkitJson.object().put("input_tokens", usage.promptTokens());
        u.putObject("input_tokens_details").put("cached_tokens", usage.cachedTokens()).put("cache_write_tokens", 0);
        u.put("output_tokens", usage.completionTokens());
        u.putObject("output_tokens_details").put("reasoning_tokens", usage.reasoningTokens());
        u.put("total_tokens", usage.totalTokens());
        return u;
    }
}
