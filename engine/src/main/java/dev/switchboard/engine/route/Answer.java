package dev.switchboard.engine.route;

import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.RouteTarget;
import java.util.Objects;

/** What the failover loop produced ({@code value}) and who produced it: the answering model and route target. */
public record Answer<T>(ModelEntry model, RouteTarget target, T value) {
    public Answer {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(value, "value");
    }
}
