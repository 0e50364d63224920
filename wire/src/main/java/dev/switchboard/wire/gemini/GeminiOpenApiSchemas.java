package dev.switchboard.wire.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.wire.Json;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Turns Google's OpenAPI-3.0-style {@code Schema} ({@code parameters}, {@code responseSchema}) into the
 * plain JSON Schema the canonical model holds, so other providers can use it: type names in lower case
 * ({@code OBJECT} becomes {@code object}), {@code nullable: true} as a {@code "null"} member of the type
 * (and of the {@code enum}, if any),
 * and the Google-only {@code propertyOrdering} and OpenAPI {@code example} dropped. Everything else is
 * shared vocabulary and kept. The input is not modified.
 */
final class GeminiOpenApiSchemas {
    private static final Set<String> DROPPED = Set.of("propertyOrdering", "property_ordering", "example", "nullable");

    private GeminiOpenApiSchemas() {
    }

    static JsonNode toJsonSchema(JsonNode schema) {
        if (schema instanceof ArrayNode a) {
            ArrayNode out = Json.array();
            a.forEach(item -> out.add(toJsonSchema(item)));
            return out;
        }
        if (!(schema instanceof ObjectNode o)) {
            return schema.deepCopy();
        }
        ObjectNode out = Json.object();
        for (Map.Entry<String, JsonNode> e : o.properties()) {
            String key = e.getKey();
            JsonNode value = e.getValue();
            if (DROPPED.contains(key)) {
                continue;
            }
            switch (key) {
                case "type" -> out.set("type", type(value, o.path("nullable").asBoolean(false)));
                case "enum" -> {
                    JsonNode values = value.deepCopy();
                    // A nullable enum must list null too, or JSON Schema forbids the null that OpenAPI allowed.
                    if (o.path("nullable").asBoolean(false) && values instanceof ArrayNode a && !containsNull(a)) {
                        a.addNull();
                    }
                    out.set(key, values);
                }
                case "properties", "$defs", "definitions" -> {
                    ObjectNode props = Json.object();
                    if (value instanceof ObjectNode p) {
                        p.properties().forEach(pe -> props.set(pe.getKey(), toJsonSchema(pe.getValue())));
                    }
                    out.set(key, props);
                }
                case "items", "anyOf", "oneOf", "allOf", "prefixItems", "not" -> out.set(key, toJsonSchema(value));
                case "additionalProperties" -> out.set(key, value.isObject() ? toJsonSchema(value) : value.deepCopy());
                default -> out.set(key, value.deepCopy());
            }
        }
        return out;
    }

    private static boolean containsNull(ArrayNode a) {
        for (JsonNode v : a) {
            if (v.isNull()) {
                return true;
            }
        }
        return false;
    }

    private static JsonNode type(JsonNode type, boolean nullable) {
        if (!type.isTextual()) {
            return type.deepCopy();
        }
        String t = type.textValue().toLowerCase(Locale.ROOT);
        if (!nullable) {
            return Json.MAPPER.getNodeFactory().textNode(t);
        }
        ArrayNode both = Json.array();
        both.add(t);
        both.add("null");
        return both;
    }
}
