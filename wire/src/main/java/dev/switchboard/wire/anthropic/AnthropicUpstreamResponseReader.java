package dev.switchboard.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.Usage;
import dev.switchboard.wire.internal.UpstreamErrors;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads an upstream's non-streamed {@code message} into a canonical answer. Signatures
 * are kept with origin {@code anthropic}; usage is converted to the canonical convention (input includes
 * cache reads and writes); a refusal's {@code stop_details} are its canonical refusal details. A body that is not a message object is a retryable 502: the provider broke its
 * protocol, another one may not.
 */
final class AnthropicUpstreamResponseReader {
    private AnthropicUpstreamResponseReader() {
    }

    static ChatResponse read(JsonNode body) {
        if (body == null || !body.isObject() || !body.path("content").isArray()) {
            throw UpstreamErrors.broken("The Anthropic upstream answered with something that is not "
                    + "a message object.").toException();
        }
        List<ContentBlock> content = new ArrayList<>();
        body.path("content").forEach(b -> content.add(AnthropicResponseBlocks.read(b)));
        AnthropicStop stop = AnthropicStop.read(body);
        Usage usage = AnthropicUsageJson.read(body.path("usage"), Usage.EMPTY);
        return new ChatResponse(body.path("id").asText(""), body.path("model").asText(""), content, stop.reason(),
                stop.sequence(), usage, List.of(), List.of(), stop.refusalDetails());
    }
}
