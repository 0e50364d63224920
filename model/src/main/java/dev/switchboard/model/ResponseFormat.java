package dev.switchboard.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import java.util.Optional;

/** The requested output shape (spec 2.5). */
public sealed interface ResponseFormat {
    Text TEXT = new Text();
    JsonObject JSON_OBJECT = new JsonObject();

    record Text() implements ResponseFormat {}

    /** Any single valid JSON value. */
    record JsonObject() implements ResponseFormat {}

    /** JSON matching {@code schema}. */
    record JsonSchema(String name, Optional<String> description, JsonNode schema, boolean strict) implements ResponseFormat {
        public JsonSchema {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(description, "description");
            Objects.requireNonNull(schema, "schema");
        }
    }
}
