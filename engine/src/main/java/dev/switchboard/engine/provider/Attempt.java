package dev.switchboard.engine.provider;

import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.ProviderConfig;
import dev.switchboard.engine.catalog.RouteTarget;
import dev.switchboard.model.ChatRequest;
import java.util.Objects;

/**
 * One upstream attempt's inputs: the request (already fitted to {@code model}), the model record, the
 * provider, the route target (the provider's model name) and the provider key to use (empty for providers
 * without keys). Never printed with its key.
 */
public record Attempt(ChatRequest request, ModelEntry model, ProviderConfig provider, RouteTarget target, String apiKey) {
    public Attempt {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(apiKey, "apiKey");
    }

    public String upstreamModel() {
        return target.upstreamModel();
    }

    /** The same attempt with another request (e.g. a compatible rewrite after a refusal). */
    public Attempt withRequest(ChatRequest other) {
        return new Attempt(other, model, provider, target, apiKey);
    }

    @Override
    public String toString() {
        return "Attempt[" + model.id() + " via " + provider.id() + "/" + target.upstreamModel() + "]";
    }
}
