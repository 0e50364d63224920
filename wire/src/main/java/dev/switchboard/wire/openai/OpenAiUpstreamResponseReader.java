package dev.switchboard.wire.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock.Text;
import dev.switchboard.model.ContentBlock.Thinking;
import dev.switchboard.model.ContentBlock.ToolCall;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.Usage;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.LogprobEntries;
import dev.switchboard.wire.internal.UpstreamErrors;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads a non-streamed answer of an OpenAI-compatible upstream ({@code choices[0]} only).
 *
 * <ul>
 *   <li>Reasoning ({@code reasoning_content}, or {@code reasoning}; {@code reasoning_details} when it
 *       carries signatures) becomes Thinking blocks placed first, then text, then tool calls.</li>
 *   <li>{@code message.refusal} (or a {@code refusal} content part) becomes a {@link ContentBlock.Refusal}
 *       after the text, and a plain stop becomes {@link StopReason#REFUSAL}.</li>
 *   <li>{@code finish_reason: stop} with tool calls reads as TOOL_USE (some servers say stop there);
 *       vLLM's {@code stop_reason} string reads as the matched stop sequence.</li>
 *   <li>{@code choices[0].logprobs.content} becomes the answer's token log probabilities, and
 *       {@code logprobs.refusal} its refusal's.</li>
 *   <li>A body without {@code usage} yields zero counts marked {@code ESTIMATED}, so the engine knows
 *       to estimate them.</li>
 * </ul>
 * Malformed answers (no choices, a top-level {@code error}) throw a retryable 502 {@link GatewayException}:
 * another provider may well answer properly.
 */
final class OpenAiUpstreamResponseReader {
    private OpenAiUpstreamResponseReader() {
    }

    static ChatResponse read(JsonNode body) {
        if (!(body instanceof ObjectNode b)) {
            throw malformed("the answer is not a JSON object");
        }
        if (b.hasNonNull("error")) {
            GatewayError e = OpenAiErrors.fromUpstream(502, Json.writeBytes(b));
            throw e.toException();
        }
        JsonNode choices = b.path("choices");
        if (!choices.isArray() || choices.isEmpty() || !choices.get(0).isObject()) {
            throw malformed("the answer has no choices");
        }
        JsonNode choice = choices.get(0);
        JsonNode message = choice.path("message");

        List<ContentBlock> content = new ArrayList<>(reasoning(message));
        String refusal = message.path("refusal").isTextual() ? message.path("refusal").textValue() : "";
        StringBuilder text = new StringBuilder();
        JsonNode c = message.path("content");
        if (c.isTextual()) {
            text.append(c.textValue());
        } else if (c.isArray()) {
            for (JsonNode part : c) {
                if (part.path("text").isTextual()) {
                    text.append(part.path("text").textValue());
                } else if (part.path("refusal").isTextual() && refusal.isEmpty()) {
                    refusal = part.path("refusal").textValue();
                }
            }
        }
        if (!text.isEmpty()) {
            content.add(Text.of(text.toString()));
        }
        if (!refusal.isEmpty()) {
            content.add(new ContentBlock.Refusal(refusal));
        }
        List<ToolCall> calls = toolCalls(message.path("tool_calls"));
        content.addAll(calls);

        String finish = choice.path("finish_reason").isTextual() ? choice.path("finish_reason").textValue() : "stop";
        StopReason stop = OpenAiFinishReasons.fromWire(finish);
        Optional<String> stopSequence = Optional.empty();
        if (stop == StopReason.END_TURN) {
            if (!calls.isEmpty()) {
                stop = StopReason.TOOL_USE;
            } else if (!refusal.isEmpty()) {
                stop = StopReason.REFUSAL;
            } else if (choice.path("stop_reason").isTextual()) {
                stop = StopReason.STOP_SEQUENCE;
                stopSequence = Optional.of(choice.path("stop_reason").textValue());
            }
        }
        Usage usage = b.path("usage").isObject() ? OpenAiUsageJson.read(b.path("usage"))
                : Usage.EMPTY.withProvenance(Usage.Provenance.ESTIMATED);
        return new ChatResponse(b.path("id").asText(""), b.path("model").asText(""), content, stop, stopSequence,
                usage, LogprobEntries.read(choice.path("logprobs").path("content")),
                LogprobEntries.read(choice.path("logprobs").path("refusal")), Optional.empty());
    }

    /**
     * Thinking blocks of an upstream message. With signed {@code reasoning_details} those are the source
     * (origin {@code openai}: only the upstream that issued them can check them); else the plain string.
     */
    static List<ContentBlock> reasoning(JsonNode message) {
        String plain = message.path("reasoning_content").isTextual() ? message.path("reasoning_content").textValue()
                : message.path("reasoning").isTextual() ? message.path("reasoning").textValue() : "";
        JsonNode details = message.path("reasoning_details");
        if (details instanceof ArrayNode a && !a.isEmpty()) {
            try {
                List<ContentBlock> blocks = OpenAiReasoningDetails.read(a, "reasoning_details", Optional.of(OpenAi.FORMAT));
                if (OpenAiReasoningDetails.needed(blocks) || plain.isEmpty()) {
                    return OpenAiReasoningDetails.withPlainText(blocks, plain);
                }
            } catch (GatewayException malformedDetails) {
                // An odd reasoning_details shape must not cost the answer; fall back to the plain string.
            }
        }
        return plain.isEmpty() ? List.of() : List.of(Thinking.of(plain));
    }

    private static List<ToolCall> toolCalls(JsonNode calls) {
        List<ToolCall> out = new ArrayList<>();
        if (!calls.isArray()) {
            return out;
        }
        int i = 0;
        for (JsonNode call : calls) {
            JsonNode fn = call.path("function");
            JsonNode args = fn.path("arguments");
            String arguments = args.isTextual() ? args.textValue() : args.isObject() ? Json.write(args) : "";
            String id = call.path("id").asText("");
            out.add(new ToolCall(id.isEmpty() ? "call_" + i : id, fn.path("name").asText(""), arguments,
                    call instanceof ObjectNode o ? safeSignature(o) : Optional.empty()));
            i++;
        }
        return out;
    }

    private static Optional<dev.switchboard.model.Signature> safeSignature(ObjectNode call) {
        try {
            return OpenAiThoughtSignatures.read(call, "tool_calls");
        } catch (GatewayException e) {
            return Optional.empty();
        }
    }

    private static GatewayException malformed(String why) {
        return UpstreamErrors.broken("The upstream answered with a malformed chat completion: " + why
                + ".").toException();
    }
}
