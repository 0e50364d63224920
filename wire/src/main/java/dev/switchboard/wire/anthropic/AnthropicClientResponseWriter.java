package dev.switchboard.wire.anthropic;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.wire.Json;

/**
 * Renders a canonical answer as an Anthropic {@code message} object (spec 2.8).
 * {@code stop_sequence} is set only for {@code stop_sequence} stops; usage follows {@link AnthropicUsageJson}.
 * Blocks an Anthropic client cannot be shown are left out (see {@link AnthropicBlockWriter}).
 */
final class AnthropicClientResponseWriter {
    private static final AnthropicBlockWriter BLOCKS = new AnthropicBlockWriter(AnthropicBlockWriter.Target.CLIENT);

    private AnthropicClientResponseWriter() {
    }

    static ObjectNode write(ChatResponse response) {
        ObjectNode out = Json.object()
                .put("id", response.id())
                .put("type", "message")
                .put("role", "assistant")
                .put("model", response.model());
        ArrayNode content = out.putArray("content");
        for (ContentBlock block : response.content()) {
            if (block instanceof ContentBlock.ToolResult) {
                continue; // results are the client's to send, never part of an answer
            }
            BLOCKS.carrier(block).ifPresent(content::add);
            BLOCKS.write(block).ifPresent(content::add);
        }
        new AnthropicStop(response.stopReason(), response.stopSequence(), response.refusalDetails()).write(out);
        out.set("usage", AnthropicUsageJson.write(response.usage()));
        return out;
    }
}
