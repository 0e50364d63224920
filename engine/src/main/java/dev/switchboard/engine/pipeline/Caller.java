package dev.switchboard.engine.pipeline;

import java.util.List;
import java.util.Objects;

/**
 * The authenticated caller as the pipeline needs it: who (ids for logs and billing), the plan in force ({@code payg}
 * when the user has none or it expired; see {@code catalog/Plans}), and the
 * key's scope ({@code models} and {@code endpoints}; empty lists allow everything).
 */
public record Caller(String userId, String keyId, String plan, List<String> models, List<String> endpoints) {
    public Caller {
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(plan, "plan");
        models = List.copyOf(models);
        endpoints = List.copyOf(endpoints);
    }

    public boolean mayUseModel(String modelId) {
        return models.isEmpty() || models.contains(modelId);
    }

    public boolean mayUseEndpoint(String endpoint) {
        return endpoints.isEmpty() || endpoints.contains(endpoint);
    }
}
