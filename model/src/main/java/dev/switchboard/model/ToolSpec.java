package dev.switchboard.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import java.util.Optional;

/**
 * A client-defined function the model may call. {@code parameters} is a JSON Schema object.
 * {@code passthrough} holds the tool's fields the canonical model does not model (the messages format's
 * {@code defer_loading}, {@code input_examples}...), for an upstream of the format they came from.
 */
public record ToolSpec(String name, Optional<String> description, JsonNode parameters, Optional<Boolean> strict,
                       Optional<CacheMarker> cache, Passthrough passthrough) {
    public ToolSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(parameters, "parameters");
        Objects.requireNonNull(strict, "strict");
        Objects.requireNonNull(cache, "cache");
        Objects.requireNonNull(passthrough, "passthrough");
    }

    /** A tool without unmodelled fields. */
    public ToolSpec(String name, Optional<String> description, JsonNode parameters, Optional<Boolean> strict,
                    Optional<CacheMarker> cache) {
        this(name, description, parameters, strict, cache, Passthrough.NONE);
    }

    /** The same tool under another name. */
    public ToolSpec withName(String newName) {
        return new ToolSpec(newName, description, parameters, strict, cache, passthrough);
    }
}
