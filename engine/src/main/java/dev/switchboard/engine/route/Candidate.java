package dev.switchboard.engine.route;

import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.model.ChatRequest;
import java.util.Objects;

/**
 * One model the failover loop may answer with, and the request exactly as that model's providers get it
 * (the caller's saved defaults for that model applied, shaped to its flags and limits, fitted to its
 * context window). A request's candidates are built once, before any upstream call: the requested model
 * first, then the caller's usable fallbacks in order.
 */
public record Candidate(ModelEntry model, ChatRequest request) {
    public Candidate {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(request, "request");
    }

    /** The model's public id. */
    public String modelId() {
        return model.id();
    }
}
