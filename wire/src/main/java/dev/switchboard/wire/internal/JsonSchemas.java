package dev.switchboard.wire.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Rules about the JSON Schemas that tools and structured output carry, shared by the upstream writers.
 *
 * <ul>
 *   <li>{@link #standardTypes}: Google's schema dialect spells types in upper case ({@code "OBJECT"});
 *       JSON Schema, which Anthropic and OpenAI validate, knows only the lower-case names. A schema written
 *       for Gemini (which some clients send in any format) is normalised before it goes to another
 *       format.</li>
 *   <li>{@link #qualifiesForStrict}: OpenAI's strict mode (structured outputs, strict function calling)
 *       accepts only schemas where every object lists all its properties as {@code required} and says
 *       {@code additionalProperties: false}, with an object at the root; a schema that does not qualify is
 *       sent without {@code strict}, since the upstream would refuse the whole request otherwise.</li>
 * </ul>
 */
public final class JsonSchemas {
    private static final Set<String> GOOGLE_TYPES = Set.of("STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL");
    /** Keywords whose value is one schema. */
    private static final Set<String> SCHEMA_VALUED = Set.of("items", "additionalProperties", "not", "contains",
            "propertyNames", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties", "additionalItems");
    /** Keywords whose value is an array of schemas. */
    private static final Set<String> SCHEMA_ARRAYS = Set.of("anyOf", "oneOf", "allOf", "prefixItems");
    /** Keywords whose value maps names to schemas. */
    private static final Set<String> SCHEMA_MAPS = Set.of("properties", "$defs", "definitions", "patternProperties",
            "dependentSchemas");

    private JsonSchemas() {
    }

    /** A copy of {@code schema} with Google's upper-case type names in lower case; the input is not modified. */
    public static JsonNode standardTypes(JsonNode schema) {
        JsonNode copy = schema.deepCopy();
        lowerTypes(copy);
        return copy;
    }

    private static void lowerTypes(JsonNode schema) {
        if (!(schema instanceof ObjectNode o)) {
            return;
        }
        JsonNode type = o.get("type");
        if (type instanceof TextNode t && GOOGLE_TYPES.contains(t.textValue())) {
            o.put("type", t.textValue().toLowerCase(Locale.ROOT));
        } else if (type instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                if (a.get(i).isTextual() && GOOGLE_TYPES.contains(a.get(i).textValue())) {
                    a.set(i, TextNode.valueOf(a.get(i).textValue().toLowerCase(Locale.ROOT)));
                }
            }
        }
        forEachSubschema(o, JsonSchemas::lowerTypes);
    }

    /** Whether {@code schema} is one OpenAI's strict mode accepts (see the class comment). */
    public static boolean qualifiesForStrict(JsonNode schema) {
        return schema instanceof ObjectNode o && "object".equals(o.path("type").asText(null)) && strictEverywhere(o);
    }

    private static boolean strictEverywhere(JsonNode schema) {
        if (!(schema instanceof ObjectNode o)) {
            return schema.isBoolean() ? schema.booleanValue() : false;
        }
        if (isObjectSchema(o)) {
            if (!o.path("additionalProperties").isBoolean() || o.path("additionalProperties").booleanValue()) {
                return false;
            }
            Set<String> required = new HashSet<>();
            o.path("required").forEach(r -> required.add(r.asText()));
            Iterator<String> names = o.path("properties").fieldNames();
            while (names.hasNext()) {
                if (!required.contains(names.next())) {
                    return false;
                }
            }
        }
        boolean[] ok = {true};
        forEachSubschema(o, sub -> ok[0] &= strictEverywhere(sub));
        return ok[0];
    }

    private static boolean isObjectSchema(ObjectNode o) {
        JsonNode type = o.get("type");
        if (type == null) {
            return o.has("properties");
        }
        if (type.isTextual()) {
            return type.textValue().equals("object");
        }
        for (JsonNode t : type) {
            if (t.asText().equals("object")) {
                return true;
            }
        }
        return false;
    }

    /** Calls {@code action} on each direct subschema of {@code o}. */
    static void forEachSubschema(ObjectNode o, java.util.function.Consumer<JsonNode> action) {
        for (Map.Entry<String, JsonNode> e : o.properties()) {
            String key = e.getKey();
            JsonNode value = e.getValue();
            if (SCHEMA_VALUED.contains(key) && value.isObject()) {
                action.accept(value);
            } else if (SCHEMA_ARRAYS.contains(key) && value.isArray()) {
                value.forEach(action);
            } else if (key.equals("items") && value.isArray()) {
                value.forEach(action); // draft-4 tuple form
            } else if (SCHEMA_MAPS.contains(key) && value.isObject()) {
                value.forEach(action);
            }
        }
    }
}
