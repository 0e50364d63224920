package dev.switchboard.engine.defaults;

import java.time.Instant;
import java.util.Objects;

/**
 * One user's saved defaults for one model (by its canonical id, never an alias), as stored: the JSON
 * object of chat-completions parameters exactly as validated by {@link DefaultParams#parse}.
 */
public record StoredDefaults(String userId, String modelId, String paramsJson, Instant updatedAt) {
    public StoredDefaults {
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(modelId, "modelId");
        Objects.requireNonNull(paramsJson, "paramsJson");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }
}
