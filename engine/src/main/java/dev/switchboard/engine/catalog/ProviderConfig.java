package dev.switchboard.engine.catalog;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One configured upstream provider. {@code baseUrl} is what one would give the vendor's own SDK (e.g.
 * {@code https://api.openai.com/v1}); {@code keys} are tried in order (rotation on 401/403/429);
 * {@code headers} are extra static headers sent on every call (e.g. OpenRouter's attribution headers).
 * {@code streaming} says the provider can stream: then every call to it is streamed, also for callers
 * that want the whole answer, so the first-byte and idle deadlines apply to every attempt; a provider
 * that cannot stream is called for whole answers only (a hung one is left only after {@code total}) and
 * a streamed caller gets the answer as a stream once it is complete. {@code flavour} says which server
 * stands behind a provider of type {@code openai} ({@link ProviderFlavour}; {@code OPENAI} for the others,
 * where it is not used). {@code breaker} says when one of its route targets that keeps failing stops taking
 * live traffic ({@link Ejection}).
 */
public record ProviderConfig(String id, ProviderType type, URI baseUrl, List<String> keys, Timeouts timeouts,
                             Map<String, String> headers, boolean streaming, ProviderFlavour flavour, Ejection breaker) {
    public ProviderConfig {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(baseUrl, "baseUrl");
        keys = List.copyOf(keys);
        Objects.requireNonNull(timeouts, "timeouts");
        headers = Map.copyOf(headers);
        Objects.requireNonNull(flavour, "flavour");
        Objects.requireNonNull(breaker, "breaker");
    }

    /** A provider of the given flavour with the default {@link Ejection}. */
    public ProviderConfig(String id, ProviderType type, URI baseUrl, List<String> keys, Timeouts timeouts,
                          Map<String, String> headers, boolean streaming, ProviderFlavour flavour) {
        this(id, type, baseUrl, keys, timeouts, headers, streaming, flavour, Ejection.DEFAULT);
    }

    /** A provider of the default flavour with the given {@link Ejection}. */
    public ProviderConfig(String id, ProviderType type, URI baseUrl, List<String> keys, Timeouts timeouts,
                          Map<String, String> headers, boolean streaming, Ejection breaker) {
        this(id, type, baseUrl, keys, timeouts, headers, streaming, ProviderFlavour.OPENAI, breaker);
    }

    /** A provider of the default flavour with the default {@link Ejection}. */
    public ProviderConfig(String id, ProviderType type, URI baseUrl, List<String> keys, Timeouts timeouts,
                          Map<String, String> headers, boolean streaming) {
        this(id, type, baseUrl, keys, timeouts, headers, streaming, ProviderFlavour.OPENAI, Ejection.DEFAULT);
    }

    /** A provider that can stream (the default). */
    public ProviderConfig(String id, ProviderType type, URI baseUrl, List<String> keys, Timeouts timeouts,
                          Map<String, String> headers) {
        this(id, type, baseUrl, keys, timeouts, headers, true);
    }

    /** Never prints the keys. */
    @Override
    public String toString() {
        return "ProviderConfig[" + id + ", " + type.wire() + ", " + baseUrl + ", " + keys.size() + " key(s)]";
    }
}
