package dev.switchboard.engine.extend;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A skill a user installed: it applies to that user's chat requests that name no skill, with any of the
 * user's keys, in install order.
 *
 * @param models the models it applies to; empty: every model
 */
public record Installation(Skill skill, List<String> models, Instant installedAt) {
    public Installation {
        Objects.requireNonNull(skill, "skill");
        models = List.copyOf(models);
        Objects.requireNonNull(installedAt, "installedAt");
    }

    public boolean appliesTo(String modelId) {
        return models.isEmpty() || models.contains(modelId);
    }
}
