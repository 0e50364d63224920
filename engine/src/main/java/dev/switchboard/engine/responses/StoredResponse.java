package dev.switchboard.engine.responses;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.wire.responses.ResponsesItem;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One stored response: who owns it (a user id), which response it continues, the model that answered,
 * its status, the request's own input items (with ids) and the response object exactly as it was served
 * (its {@code output} included). Everything needed to show it again and to continue its conversation.
 */
public record StoredResponse(String id, String ownerId, Optional<String> previousId, String model, String status,
                             Instant createdAt, List<ResponsesItem> input, ObjectNode response) {
    public StoredResponse {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(ownerId, "ownerId");
        Objects.requireNonNull(previousId, "previousId");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(createdAt, "createdAt");
        input = List.copyOf(input);
        response = response.deepCopy();
    }

    @Override
    public ObjectNode response() {
        return response.deepCopy();
    }

    /**
     * Whether its output belongs to the conversation it started: a response that failed or was cut off
     * by its client left partial output that no provider should be shown as a finished turn.
     */
    public boolean outputContinues() {
        return status.equals("completed") || status.equals("incomplete");
    }
}
