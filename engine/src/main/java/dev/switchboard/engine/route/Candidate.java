package dev.switchboard.engine.route;

import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.model.ChatRequest;
import java.util.List;
import java.util.Objects;

/**
 * One model the failover loop may answer with, and the request exactly as that model's providers get it
 * (the skills that apply to it and the caller's saved defaults for that model applied, shaped to its flags
 * and limits, fitted to its context window). A request's candidates are built once, before any upstream
 * call: the requested model first, then the caller's usable fallbacks in order.
 *
 * @param skills the ids of the skills applied to {@code request}, in stack order (named by the request, or
 *               installed by the caller for this model); what a billed answer of this candidate counts as used
 */
public record Candidate(ModelEntry model, ChatRequest request, List<String> skills) {
    public Candidate {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(request, "request");
        skills = List.copyOf(skills);
    }

    /** A candidate no skill applies to. */
    public Candidate(ModelEntry model, ChatRequest request) {
        this(model, request, List.of());
    }

    /** The model's public id. */
    public String modelId() {
        return model.id();
    }
}
