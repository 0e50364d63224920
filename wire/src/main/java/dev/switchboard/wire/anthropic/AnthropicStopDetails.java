package dev.switchboard.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.RefusalDetails;
import dev.switchboard.wire.Json;
import java.util.Optional;

/**
 * The messages format's {@code stop_details} both ways: {@code {type: "refusal", category, explanation}} on a
 * refused answer (the message, or a stream's {@code message_delta.delta}), the canonical
 * {@link RefusalDetails}. Other types, which the API does not define today, are not read; a {@code null}
 * category or explanation is an absent one, and is written as {@code null} as the API writes it.
 */
final class AnthropicStopDetails {
    static final String REFUSAL = "refusal";

    private AnthropicStopDetails() {
    }

    static Optional<RefusalDetails> read(JsonNode stopDetails) {
        if (!stopDetails.path("type").asText("").equals(REFUSAL)) {
            return Optional.empty();
        }
        return Optional.of(new RefusalDetails(text(stopDetails.path("category")), text(stopDetails.path("explanation"))));
    }

    static Optional<ObjectNode> write(Optional<RefusalDetails> details) {
        return details.map(d -> {
            ObjectNode o = Json.object().put("type", REFUSAL);
            o.put("category", d.category().orElse(null));
            o.put("explanation", d.explanation().orElse(null));
            return o;
        });
    }

    private static Optional<String> text(JsonNode n) {
        return n.isTextual() ? Optional.of(n.textValue()) : Optional.empty();
    }
}
