package dev.switchboard.engine.pipeline;

import dev.switchboard.engine.account.KeyLimits;
import java.util.List;
import java.util.Objects;

/**
 * The authenticated caller as the pipeline needs it: who (ids for logs and billing), the plan in force ({@code payg}
 * when the user has none or it expired; see {@code catalog/Plans}), the key's scope ({@code models} and
 * {@code endpoints}; empty lists allow everything) and the key's limits.
 */
public record Caller(String userId, String keyId, String plan, List<String> models, List<String> endpoints,
                     KeyLimits keyLimits) {
    public Caller {
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(plan, "plan");
        models = List.copyOf(models);
        endpoints = List.copyOf(endpoints);
        Objects.requireNonNull(keyLimits, "keyLimits");
    }

    /** A caller whose key has no limits. */
    public Caller(String userId, String keyId, String plan, List<String> models, List<String> endpoints) {
        this(userId, keyId, plan, models, endpoints, KeyLimits.NONE);
    }

    public boolean mayUseModel(String modelId) {
        return models.isEmpty() || models.contains(modelId);
    }

    public boolean mayUseEndpoint(String endpoint) {
        return endpoints.isEmpty() || endpoints.contains(endpoint);
    }
}
