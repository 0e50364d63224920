package dev.switchboard.engine.route;

import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.RouteTarget;
import java.util.Objects;

/**
 * What the failover loop produced ({@code value}) and who produced it: the answering candidate (its model
 * and the request as sent to it) and route target (the provider and its model name).
 */
public record Answer<T>(Candidate candidate, RouteTarget target, T value) {
    public Answer {
        Objects.requireNonNull(candidate, "candidate");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(value, "value");
    }

    /** The model that answered. */
    public ModelEntry model() {
        return candidate.model();
    }
}
