package dev.switchboard.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.Signature;
import dev.switchboard.wire.Json;
import java.util.Optional;

/**
 * Reads the content blocks of an upstream's answer, for whole responses and for the
 * start of streamed blocks. Lenient, because an upstream's output is not the caller's fault: missing
 * strings read as empty. Block types the canonical model does not know (server-tool uses and results,
 * and whatever Anthropic adds) are kept as {@code Opaque("anthropic")}; {@code citations} on text are
 * dropped (the canonical text block has no place for them).
 */
final class AnthropicResponseBlocks {
    private AnthropicResponseBlocks() {
    }

    static ContentBlock read(JsonNode block) {
        return switch (block.path("type").asText("")) {
            case "text" -> ContentBlock.Text.of(block.path("text").asText(""));
            case "thinking" -> new ContentBlock.Thinking(block.path("thinking").asText(""), signature(block));
            case "redacted_thinking" -> new ContentBlock.RedactedThinking(block.path("data").asText(""), Anthropic.FORMAT);
            case "tool_use" -> ContentBlock.ToolCall.of(block.path("id").asText(""), block.path("name").asText(""),
                    block.path("input").isObject() ? Json.write(block.path("input")) : "{}");
            default -> new ContentBlock.Opaque(Anthropic.FORMAT, block.deepCopy());
        };
    }

    /** An empty signature (a block still being streamed) is no signature. */
    static Optional<Signature> signature(JsonNode block) {
        String value = block.path("signature").asText("");
        return value.isEmpty() ? Optional.empty() : Optional.of(new Signature(Anthropic.FORMAT, value));
    }
}
