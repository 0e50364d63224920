package dev.switchboard.engine.pipeline;

import dev.switchboard.engine.catalog.ModelEntry;
import java.util.List;
import java.util.Objects;

/** The requested model and the caller's usable fallbacks, each once, in the order they will be tried. */
public record ResolvedModels(ModelEntry requested, List<ModelEntry> fallbacks) {
    public ResolvedModels {
        Objects.requireNonNull(requested, "requested");
        fallbacks = List.copyOf(fallbacks);
    }
}
