package dev.switchboard.engine.catalog;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One configured upstream provider. {@code baseUrl} is what one would give the vendor's own SDK (e.g.
 * {@code https://api.openai.com/v1}); {@code keys} are tried in order (rotation on 401/403/429);
 * {@code headers} are extra static headers sent on every call (e.g. OpenRouter's attribution headers).
 */
public record ProviderConfig(String id, ProviderType type, URI baseUrl, List<String> keys, Timeouts timeouts,
                             Map<String, String> headers) {
    public ProviderConfig {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(baseUrl, "baseUrl");
        keys = List.copyOf(keys);
        Objects.requireNonNull(timeouts, "timeouts");
        headers = Map.copyOf(headers);
    }

    /** Never prints the keys. */
    @Override
    public String toString() {
        return "ProviderConfig[" + id + ", " + type.wire() + ", " + baseUrl + ", " + keys.size() + " key(s)]";
    }
}
