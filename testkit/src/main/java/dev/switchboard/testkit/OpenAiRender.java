package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Renders a {@link Reply} as OpenAI chat completions: one {@code chat.completion} object, or the
 * {@code chat.completion.chunk} sequence (role chunk, reasoning and content or
 * tool-call fragments, finish chunk, optional usage chunk with {@code choices: []}; the caller adds
 * {@code [DONE]}).
 *
 * <p>Reasoning goes in {@code reasoning_content}, as DeepSeek and vLLM send it; with
 * {@code reasoningField} it is also sent as {@code reasoning}, as OpenRouter does.
 */
final class OpenAiRender {

    private final String id;
    private final long created;
    private final String model;
    private final boolean reasoningField;

    OpenAiRender(String id, long created, String model, boolean reasoningField) {
        this.id = id;
        this.created = created;
        this.model = model;
        this.reasoningField = reasoningField;
    }

    ObjectNode completion(Reply reply) {
        ScriptedAnswer answer = reply.answer();
        ObjectNode message = TestkitJson.object().put("role", "assistant");
        switch (answer) {
            case ScriptedAnswer.Text text -> message.put("content", text.text());
            case ScriptedAnswer.ToolCalls calls -> message.putNull("content");
        }
        message.putNull("refusal");
        if (!answer.reasoning().isEmpty()) {
            putReasoning(message, ScriptedAnswer.join(answer.reasoning()));
        }
        if (answer instanceof ScriptedAnswer.ToolCalls calls) {
            ArrayNode toolCalls = message.putArray("tool_calls");
            for (ScriptedAnswer.ToolCall call : calls.calls()) {
                ObjectNode entry = toolCalls.addObject().put("id", callId(call)).put("type", "function");
                entry.putObject("function").put("name", call.name()).put("arguments", call.arguments());
            }
        }
        message.putArray("annotations");

        ObjectNode completion = TestkitJson.object()
                .put("id", id).put("object", "chat.completion").put("created", created).put("model", model);
        ObjectNode choice = completion.putArray("choices").addObject().put("index", 0);
        choice.set("message", message);
        choice.putNull("logprobs");
        choice.put("finish_reason", finishReason(answer.finish()));
        completion.set("usage", usage(reply.usage()));
        return completion;
    }

    /** Every chunk of the stream, in order, without the {@code [DONE]} sentinel. */
    List<ObjectNode> chunks(Reply reply, boolean includeUsage) {
        ScriptedAnswer answer = reply.answer();
        List<ObjectNode> deltas = new ArrayList<>();
        ObjectNode role = TestkitJson.object().put("role", "assistant");
        switch (answer) {
            case ScriptedAnswer.Text text -> role.put("content", "");
            case ScriptedAnswer.ToolCalls calls -> role.putNull("content");
        }
        deltas.add(role);
        for (String piece : answer.reasoning()) {
            deltas.add(putReasoning(TestkitJson.object(), piece));
        }
        switch (answer) {
            case ScriptedAnswer.Text text -> text.pieces().forEach(piece -> deltas.add(TestkitJson.object().put("content", piece)));
            case ScriptedAnswer.ToolCalls calls -> addToolCallDeltas(calls, deltas);
        }

        List<ObjectNode> chunks = new ArrayList<>();
        for (ObjectNode delta : deltas) {
            chunks.add(chunk(delta, Optional.empty(), includeUsage));
        }
        chunks.add(chunk(TestkitJson.object(), Optional.of(finishReason(answer.finish())), includeUsage));
        if (includeUsage) {
            ObjectNode usageChunk = header("chat.completion.chunk");
            usageChunk.putArray("choices");
            usageChunk.set("usage", usage(reply.usage()));
            chunks.add(usageChunk);
        }
        return chunks;
    }

    /**
     * The first fragment of each call names it with empty arguments; the arguments follow in at least
     * two slices, so a client that does not concatenate per index is caught.
     */
    private static void addToolCallDeltas(ScriptedAnswer.ToolCalls calls, List<ObjectNode> deltas) {
        for (int index = 0; index < calls.calls().size(); index++) {
            ScriptedAnswer.ToolCall call = calls.calls().get(index);
            ObjectNode opening = TestkitJson.object().put("index", index).put("id", callId(call)).put("type", "function");
            opening.putObject("function").put("name", call.name()).put("arguments", "");
            // Without reasoning in between, the opening fragment rides on the role chunk, as OpenAI does.
            boolean merge = index == 0 && deltas.size() == 1;
            ObjectNode target = merge ? deltas.getFirst() : TestkitJson.object();
            target.putArray("tool_calls").add(opening);
            if (!merge) {
                deltas.add(target);
            }
            for (String slice : slices(call.arguments())) {
                ObjectNode fragment = TestkitJson.object().put("index", index);
                fragment.putObject("function").put("arguments", slice);
                ObjectNode delta = TestkitJson.object();
                delta.putArray("tool_calls").add(fragment);
                deltas.add(delta);
            }
        }
    }

    /** Two or three slices (arguments are a JSON object, so at least two characters). */
    private static List<String> slices(String arguments) {
        int count = Math.min(3, arguments.length());
        int size = (arguments.length() + count - 1) / count;
        List<String> slices = new ArrayList<>();
        for (int start = 0; start < arguments.length(); start += size) {
            slices.add(arguments.substring(start, Math.min(arguments.length(), start + size)));
        }
        return slices;
    }

    private ObjectNode chunk(ObjectNode delta, Optional<String> finishReason, boolean includeUsage) {
        ObjectNode chunk = header("chat.completion.chunk");
        ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
        choice.set("delta", delta);
        choice.putNull("logprobs");
        finishReason.ifPresentOrElse(reason -> choice.put("finish_reason", reason),
                () -> choice.putNull("finish_reason"));
        if (includeUsage) {
            chunk.putNull("usage"); // OpenAI marks every chunk before the usage chunk this way
        }
        return chunk;
    }

    private ObjectNode header(String object) {
        return TestkitJson.object().put("id", id).put("object", object).put("created", created).put("model", model);
    }

    private ObjectNode putReasoning(ObjectNode target, String text) {
        target.put("reasoning_content", text);
        if (reasoningField) {
            target.put("reasoning", text);
        }
        return target;
    }

    static ObjectNode usage(ScriptedUsage usage) {
        ObjectNode node = TestkitJson.object()
                .put("prompt_tokens", usage.promptTokens())
                .put("completion_tokens", usage.completionTokens())
                .put("total_tokens", usage.totalTokens());
        node.putObject("prompt_tokens_details").put("cached_tokens", usage.cachedTokens()).put("audio_tokens", 0);
        node.putObject("completion_tokens_details")
                .put("reasoning_tokens", usage.reasoningTokens())
                .put("audio_tokens", 0)
                .put("accepted_prediction_tokens", 0)
                .put("rejected_prediction_tokens", 0);
        return node;
    }

    static String callId(ScriptedAnswer.ToolCall call) {
        return "call_" + call.sequence();
    }

    private static String finishReason(ScriptedAnswer.Finish finish) {
        return switch (finish) {
            case STOP -> "stop";
            case LENGTH -> "length";
            case TOOL_CALLS -> "tool_calls";
        };
    }
}
