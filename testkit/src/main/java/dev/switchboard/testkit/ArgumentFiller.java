package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Builds deterministic tool-call arguments from a JSON schema: every {@code required} property gets a
 * fixed value of its type (string {@code "Paris"}, number 1, boolean {@code true}, an array of one such
 * value, a nested object filled the same way, the first {@code enum} value). Optional properties are
 * left out, so the arguments are the smallest valid call a test can predict.
 */
final class ArgumentFiller {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final int MAX_DEPTH = 8; // schemas may be recursive; a fake need not follow forever

    private ArgumentFiller() {
    }

    static ObjectNode fill(JsonNode schema) {
        return fillObject(schema, 0);
    }

    private static ObjectNode fillObject(JsonNode schema, int depth) {
        ObjectNode arguments = NODES.objectNode();
        JsonNode properties = schema.path("properties");
        for (JsonNode required : schema.path("required")) {
            if (required.isTextual()) {
                arguments.set(required.asText(), valueFor(properties.path(required.asText()), depth + 1));
            }
        }
        return arguments;
    }

    private static JsonNode valueFor(JsonNode schema, int depth) {
        if (schema.path("enum").isArray() && !schema.path("enum").isEmpty()) {
            return schema.path("enum").get(0).deepCopy();
        }
        if (schema.has("const")) {
            return schema.get("const").deepCopy();
        }
        for (String union : new String[] {"anyOf", "oneOf", "allOf"}) {
            if (schema.path(union).isArray() && !schema.path(union).isEmpty()) {
                return valueFor(schema.path(union).get(0), depth);
            }
        }
        if (depth > MAX_DEPTH) {
            return NODES.textNode("Paris");
        }
        return switch (typeOf(schema)) {
            case "integer", "number" -> NODES.numberNode(1);
            case "boolean" -> NODES.booleanNode(true);
            case "null" -> NODES.nullNode();
            case "array" -> {
                ArrayNode array = NODES.arrayNode();
                array.add(valueFor(schema.path("items"), depth + 1));
                yield array;
            }
            case "object" -> fillObject(schema, depth);
            default -> NODES.textNode("Paris");
        };
    }

    /** The declared type; the first non-null one of a type list; "object" for an untyped schema with properties. */
    private static String typeOf(JsonNode schema) {
        JsonNode type = schema.path("type");
        if (type.isTextual()) {
            return type.asText().toLowerCase(java.util.Locale.ROOT); // Google's schemas spell types in capitals
        }
        for (JsonNode candidate : type) {
            if (candidate.isTextual() && !candidate.asText().equals("null")) {
                return candidate.asText();
            }
        }
        return schema.has("properties") ? "object" : "string";
    }
}
