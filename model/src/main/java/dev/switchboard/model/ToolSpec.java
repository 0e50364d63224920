package dev.switchboard.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import java.util.Optional;

/** A client-defined function the model may call. {@code parameters} is a JSON Schema object. */
public record ToolSpec(String name, Optional<String> description, JsonNode parameters, Optional<Boolean> strict,
                       Optional<CacheMarker> cache) {
    public ToolSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(parameters, "parameters");
        Objects.requireNonNull(strict, "strict");
        Objects.requireNonNull(cache, "cache");
    }
}
