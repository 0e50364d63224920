package dev.switchboard.wire.gemini;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.Usage;
import dev.switchboard.wire.Json;
import java.util.Optional;

/**
 * Renders an answer for a content-parts client (spec 2.9): one candidate
 * {@code {content: {role: model, parts}, finishReason, index: 0}}, {@code usageMetadata},
 * {@code modelVersion} (the requested model) and {@code responseId} (the answer's id, when it has one).
 *
 * <p>Parts: thinking as {@code thought: true} text parts, text, images as {@code inlineData} or
 * {@code fileData}, tool calls as {@code functionCall {name, args, id}}; a Gemini signature stays on
 * the part of the block it belongs to. Redacted reasoning and other formats' opaque blocks have no
 * place here and are left out; so is a thinking block with neither text nor a Gemini signature.
 */
final class GeminiClientResponseWriter {
    private GeminiClientResponseWriter() {
    }

    static ObjectNode write(ChatResponse response, String requestedModel) {
        ArrayNode parts = Json.array();
        for (ContentBlock block : response.content()) {
            part(block).ifPresent(parts::add);
        }
        ObjectNode out = envelope(parts, Optional.of(response.stopReason()), Optional.of(response.usage()), requestedModel,
                response.id());
        if (!response.logprobs().isEmpty()) {
            ((ObjectNode) out.path("candidates").get(0)).set("logprobsResult", GeminiLogprobs.write(response.logprobs()));
        }
        return out;
    }

    /** The part showing one block to a client, if the block has a form here. */
    static Optional<ObjectNode> part(ContentBlock block) {
        return switch (block) {
            case ContentBlock.Text t -> Optional.of(GeminiParts.text(t.text(), GeminiSignatures.forClient(t.signature())));
            // no refusal part here: the words are text, and finishReason SAFETY says the model refused
            case ContentBlock.Refusal r -> Optional.of(GeminiParts.text(r.text(), Optional.empty()));
            case ContentBlock.Thinking t -> t.text().isEmpty() && GeminiSignatures.forClient(t.signature()).isEmpty()
                    ? Optional.empty()
                    : Optional.of(GeminiParts.thought(t.text(), GeminiSignatures.forClient(t.signature())));
            case ContentBlock.ToolCall c -> Optional.of(GeminiParts.functionCall(new ContentBlock.ToolCall(c.id(), c.name(),
                    c.argumentsJson(), GeminiSignatures.forClient(c.signature()))));
            case ContentBlock.Image i -> Optional.of(GeminiParts.media(i.source()));
            case ContentBlock.Opaque o -> o.format().equals(Gemini.FORMAT) && o.json().isObject()
                    ? Optional.of((ObjectNode) o.json().deepCopy())
                    : Optional.empty();
            case ContentBlock.Document d -> Optional.empty();
            case ContentBlock.ToolResult r -> Optional.empty();
            case ContentBlock.RedactedThinking r -> Optional.empty();
        };
    }

    /**
     * A response-shaped object: the whole answer, or one chunk of a stream (then without finish reason
     * and usage until the last chunk).
     */
    static ObjectNode envelope(ArrayNode parts, Optional<StopReason> stop, Optional<Usage> usage, String model,
                               String responseId) {
        ObjectNode content = Json.object();
        content.put("role", "model");
        content.set("parts", parts);
        ObjectNode candidate = Json.object();
        candidate.set("content", content);
        stop.ifPresent(s -> candidate.put("finishReason", GeminiFinishReasons.toWire(s)));
        candidate.put("index", 0);
        ObjectNode root = Json.object();
        root.set("candidates", Json.array().add(candidate));
        usage.ifPresent(u -> root.set("usageMetadata", GeminiUsageMetadata.write(u)));
        root.put("modelVersion", model);
        if (!responseId.isEmpty()) {
            root.put("responseId", responseId);
        }
        return root;
    }
}
