package dev.switchboard.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.RefusalDetails;
import dev.switchboard.model.StopReason;
import dev.switchboard.wire.Json;
import java.util.Optional;

/**
 * Why an answer of the messages format stopped, as a message and a stream's {@code message_delta.delta} both
 * carry it: {@code stop_reason} ({@link AnthropicStopReasons}), {@code stop_sequence} (the matched string of a
 * {@code stop_sequence} stop, else {@code null}) and, on a refusal, {@code stop_details}
 * ({@code {type: "refusal", category, explanation}}, the canonical {@link RefusalDetails}; other types, which
 * the API does not define today, are not read; a {@code null} member is an absent one and is written back as
 * {@code null}).
 */
record AnthropicStop(StopReason reason, Optional<String> sequence, Optional<RefusalDetails> refusalDetails) {
    static final String REFUSAL = "refusal";

    /** The stop fields of {@code holder}; a missing {@code stop_reason} is END_TURN. */
    static AnthropicStop read(JsonNode holder) {
        StopReason reason = holder.path("stop_reason").isTextual()
                ? AnthropicStopReasons.fromWire(holder.path("stop_reason").textValue())
                : StopReason.END_TURN;
        JsonNode details = holder.path("stop_details");
        Optional<RefusalDetails> refusal = details.path("type").asText("").equals(REFUSAL)
                ? Optional.of(new RefusalDetails(text(details.path("category")), text(details.path("explanation"))))
                : Optional.empty();
        return new AnthropicStop(reason, text(holder.path("stop_sequence")), refusal);
    }

    /** Puts the stop fields on {@code holder}: {@code stop_details} only when there are details. */
    void write(ObjectNode holder) {
        holder.put("stop_reason", AnthropicStopReasons.toWire(reason));
        holder.put("stop_sequence", reason == StopReason.STOP_SEQUENCE ? sequence.orElse(null) : null);
        refusalDetails.ifPresent(d -> holder.putObject("stop_details").put("type", REFUSAL)
                .put("category", d.category().orElse(null)).put("explanation", d.explanation().orElse(null)));
    }

    private static Optional<String> text(JsonNode n) {
        return n.isTextual() ? Optional.of(n.textValue()) : Optional.empty();
    }
}
