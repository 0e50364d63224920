package dev.switchboard.wire.openai;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock.Thinking;
import dev.switchboard.model.ContentBlock.ToolCall;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.LogprobEntries;
import java.util.List;

/**
 * Renders a canonical answer as a chat-completions response (spec 2.6). The format has one text, one
 * reasoning string and a list of tool calls per message, so block order is flattened into those three;
 * signatures and redacted reasoning go into {@code reasoning_details} (copied onto the first tool call,
 * see {@link OpenAiReasoningDetails}), tool-call thought signatures into {@code tool_calls[].extra_content}.
 * Images, documents and opaque blocks of an answer have no place in an assistant message and are not
 * rendered.
 */
final class OpenAiClientResponseWriter {
    private OpenAiClientResponseWriter() {
    }

    static ObjectNode write(ChatResponse r, long created, String id) {
        ObjectNode o = Json.object();
        o.put("id", id);
        o.put("object", "chat.completion");
        o.put("created", created);
        o.put("model", r.model());
        ArrayNode choices = o.putArray("choices");
        ObjectNode choice = choices.addObject();
        choice.put("index", 0);
        choice.set("message", message(r.content()));
        if (r.logprobs().isEmpty() && r.refusalLogprobs().isEmpty()) {
            choice.putNull("logprobs");
        } else {
            ObjectNode logprobs = choice.putObject("logprobs");
            logprobs.set("content", r.logprobs().isEmpty() ? Json.MAPPER.nullNode() : LogprobEntries.write(r.logprobs()));
            logprobs.set("refusal", r.refusalLogprobs().isEmpty() ? Json.MAPPER.nullNode()
                    : LogprobEntries.write(r.refusalLogprobs()));
        }
        choice.put("finish_reason", OpenAiFinishReasons.toWire(r.stopReason(),
                r.content().stream().anyMatch(b -> b instanceof ContentBlock.Refusal)));
        o.set("usage", OpenAiUsageJson.write(r.usage()));
        return o;
    }

    static ObjectNode message(List<ContentBlock> content) {
        ObjectNode m = Json.object();
        m.put("role", "assistant");
        StringBuilder text = new StringBuilder();
        StringBuilder reasoning = new StringBuilder();
        boolean hasText = false;
        boolean hasReasoning = false;
        StringBuilder refusal = new StringBuilder();
        boolean hasRefusal = false;
        ArrayNode calls = Json.array();
        for (ContentBlock b : content) {
            switch (b) {
                case ContentBlock.Text t -> {
                    text.append(t.text());
                    hasText = true;
                }
                case Thinking t -> {
                    reasoning.append(t.text());
                    hasReasoning = true;
                }
                case ContentBlock.Refusal r -> {
                    refusal.append(r.text());
                    hasRefusal = true;
                }
                case ToolCall c -> calls.add(toolCall(c));
                default -> {
                    // No chat-completions field for it; redacted reasoning is covered by reasoning_details.
                }
            }
        }
        if (hasText || calls.isEmpty() && !hasRefusal) {
            m.put("content", text.toString());
        } else {
            m.putNull("content");
        }
        if (hasReasoning) {
            // Both spellings: DeepSeek-style clients read reasoning_content, OpenRouter-style ones reasoning.
            m.put("reasoning", reasoning.toString());
            m.put("reasoning_content", reasoning.toString());
        }
        if (OpenAiReasoningDetails.needed(content)) {
            m.set("reasoning_details", OpenAiReasoningDetails.write(content, true));
            if (!calls.isEmpty()) {
                OpenAiReasoningDetails.attach((ObjectNode) calls.get(0), OpenAiReasoningDetails.write(content, true));
            }
        }
        if (!calls.isEmpty()) {
            m.set("tool_calls", calls);
        }
        if (hasRefusal) {
            m.put("refusal", refusal.toString());
        } else {
            m.putNull("refusal");
        }
        return m;
    }

    /** A tool call as chat completions show it (also the first fragment of a streamed one, after its index). */
    static ObjectNode toolCall(ToolCall c) {
        return toolCall(c, true);
    }

    /**
     * A tool call in the format's shape, with its Gemini thought signature when {@code withSignature} (always to
     * clients; to an upstream only when it takes them back), also as an assistant turn's call in a request.
     */
    static ObjectNode toolCall(ToolCall c, boolean withSignature) {
        ObjectNode call = Json.object();
        call.put("id", c.id());
        call.put("type", "function");
        ObjectNode fn = call.putObject("function");
        fn.put("name", c.name());
        fn.put("arguments", c.argumentsJson());
        if (withSignature) {
            OpenAiThoughtSignatures.write(call, c.signature());
        }
        return call;
    }
}
