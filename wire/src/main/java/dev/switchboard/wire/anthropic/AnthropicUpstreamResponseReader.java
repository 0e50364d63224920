package dev.switchboard.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

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
            throw new GatewayError(502, "api_error", "The Anthropic upstream answered with something that is not "
                    + "a message object.", Optional.empty(), true).toException();
        }
        List<ContentBlock> content = new ArrayList<>();
        body.path("content").forEach(b -> content.add(AnthropicResponseBlocks.read(b)));
        StopReason reason = body.path("stop_reason").isTextual()
                ? AnthropicStopReasons.fromWire(body.path("stop_reason").textValue())
                : StopReason.END_TURN;
        Optional<String> stopSequence = body.path("stop_sequence").isTextual()
                ? Optional.of(body.path("stop_sequence").textValue())
                : Optional.empty();
        Usage usage = AnthropicUsageJson.read(body.path("usage"), Usage.EMPTY);
        return new ChatResponse(body.path("id").asText(""), body.path("model").asText(""), content, reason,
                stopSequence, usage, List.of(), List.of(), AnthropicStopDetails.read(body.path("stop_details")));
    }
}
