package dev.switchboard.wire.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.JsonSchemas;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reduces a JSON Schema to what Gemini's {@code parametersJsonSchema} and {@code responseJsonSchema} take
 * (Google refuses the request otherwise, e.g. for a {@code $ref} with sibling keywords):
 *
 * <ul>
 *   <li>local {@code $ref}s ({@code #/$defs/...}, {@code #/definitions/...}, {@code #}) are resolved: the
 *       definition is inlined, its own keywords first and the referring schema's after them; a recursive
 *       reference is cut at its second appearance (an unconstrained schema saying so in its description);
 *       the definitions themselves go;</li>
 *   <li>kept as they are: {@code type} (Google's upper-case spelling lower-cased), {@code format},
 *       {@code title}, {@code description}, {@code enum}, {@code items}, {@code prefixItems},
 *       {@code minItems}, {@code maxItems}, {@code minimum}, {@code maximum}, {@code anyOf},
 *       {@code properties}, {@code additionalProperties}, {@code required}, {@code propertyOrdering};
 *       {@code oneOf} becomes {@code anyOf} (what Google makes of it anyway), {@code const} a one-value
 *       {@code enum}, and an {@code allOf} of object schemas one merged schema;</li>
 *   <li>constraints Gemini cannot enforce ({@code pattern}, {@code minLength}, {@code maxLength},
 *       {@code default}, {@code exclusiveMinimum}, {@code exclusiveMaximum}, {@code multipleOf},
 *       {@code uniqueItems}, {@code minProperties}, {@code maxProperties}) are moved into the
 *       description, so the model still reads them;</li>
 *   <li>everything else is dropped: annotations ({@code $schema}, {@code $id}, {@code $comment},
 *       {@code examples}, {@code deprecated}, {@code readOnly}, {@code writeOnly}) and keywords with no
 *       equivalent ({@code not}, {@code if}/{@code then}/{@code else}, {@code patternProperties},
 *       {@code dependentRequired}...).</li>
 * </ul>
 * The input is not modified.
 */
final class GeminiJsonSchemas {
    private static final Set<String> KEPT = Set.of("type", "format", "title", "description", "enum", "minItems", "maxItems",
            "minimum", "maximum", "required", "propertyOrdering", "nullable");
    private static final List<String> DESCRIBED = List.of("pattern", "minLength", "maxLength", "default", "exclusiveMinimum",
            "exclusiveMaximum", "multipleOf", "uniqueItems", "minProperties", "maxProperties");
    private static final int MAX_DEPTH = 32;

    private final JsonNode root;
    private final Deque<String> expanding = new ArrayDeque<>();

    private GeminiJsonSchemas(JsonNode root) {
        this.root = root;
    }

    static JsonNode reduce(JsonNode schema) {
        JsonNode standard = JsonSchemas.standardTypes(schema);
        return new GeminiJsonSchemas(standard).schema(standard, 0);
    }

    private JsonNode schema(JsonNode node, int depth) {
        if (!(node instanceof ObjectNode o)) {
            return node.isBoolean() && node.booleanValue() ? Json.object() : node.deepCopy();
        }
        if (depth > MAX_DEPTH) {
            return Json.object().put("description", "(nested too deep to describe)");
        }
        ObjectNode source = o;
        Optional<String> ref = Optional.ofNullable(o.get("$ref")).filter(JsonNode::isTextual).map(JsonNode::textValue);
        if (ref.isPresent()) {
            Optional<JsonNode> target = resolve(ref.get());
            if (target.isPresent() && expanding.contains(ref.get())) {
                ObjectNode cut = Json.object().put("description", "(recursive: the same shape as " + ref.get() + ")");
                copyDescription(o, cut);
                return cut;
            }
            if (target.isPresent() && target.get() instanceof ObjectNode def) {
                expanding.push(ref.get());
                try {
                    ObjectNode merged = def.deepCopy();
                    o.properties().forEach(e -> {
                        if (!e.getKey().equals("$ref")) {
                            merged.set(e.getKey(), e.getValue().deepCopy());
                        }
                    });
                    merged.remove("$ref");
                    return schema(merged, depth + 1);
                } finally {
                    expanding.pop();
                }
            }
            source = o.deepCopy();
            source.remove("$ref"); // not a local reference: what remains is all Gemini could read
        }
        return object(source, depth);
    }

    private ObjectNode object(ObjectNode o, int depth) {
        ObjectNode out = Json.object();
        List<String> notes = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : o.properties()) {
            String key = e.getKey();
            JsonNode value = e.getValue();
            switch (key) {
                case "properties" -> {
                    ObjectNode props = out.putObject("properties");
                    value.properties().forEach(p -> props.set(p.getKey(), schema(p.getValue(), depth + 1)));
                }
                case "items", "additionalProperties" -> out.set(key, value.isObject() ? schema(value, depth + 1) : value.deepCopy());
                case "prefixItems", "anyOf", "oneOf" -> {
                    ArrayNode list = out.has("anyOf") && !key.equals("prefixItems") ? (ArrayNode) out.get("anyOf")
                            : out.putArray(key.equals("prefixItems") ? "prefixItems" : "anyOf");
                    value.forEach(v -> list.add(schema(v, depth + 1)));
                }
                case "allOf" -> mergeAll(value, out, notes, depth);
                case "const" -> out.putArray("enum").add(value.deepCopy());
                default -> {
                    if (KEPT.contains(key)) {
                        if (!out.has(key)) {
                            out.set(key, value.deepCopy());
                        }
                    } else if (DESCRIBED.contains(key)) {
                        notes.add(key + ": " + (value.isTextual() ? value.textValue() : Json.write(value)));
                    }
                    // anything else has no meaning for Gemini and is left out
                }
            }
        }
        if (!notes.isEmpty()) {
            String described = out.path("description").asText("");
            out.put("description", (described.isEmpty() ? "" : described + " ") + "(" + String.join("; ", notes) + ")");
        }
        return out;
    }

    /** An {@code allOf}: each member reduced and its keywords added to {@code out} (properties and required joined). */
    private void mergeAll(JsonNode members, ObjectNode out, List<String> notes, int depth) {
        for (JsonNode member : members) {
            JsonNode reduced = schema(member, depth + 1);
            if (!(reduced instanceof ObjectNode m)) {
                continue;
            }
            m.properties().forEach(e -> {
                String key = e.getKey();
                if (key.equals("properties") && out.get("properties") instanceof ObjectNode props) {
                    e.getValue().properties().forEach(p -> props.set(p.getKey(), p.getValue()));
                } else if (key.equals("required") && out.get("required") instanceof ArrayNode req) {
                    e.getValue().forEach(req::add);
                } else if (key.equals("description") && out.has("description")) {
                    notes.add(e.getValue().asText());
                } else if (!out.has(key)) {
                    out.set(key, e.getValue());
                }
            });
        }
    }

    private static void copyDescription(ObjectNode from, ObjectNode to) {
        if (from.path("description").isTextual()) {
            to.put("description", from.path("description").textValue() + " " + to.path("description").asText());
        }
    }

    /** A local reference's target: {@code #}, {@code #/$defs/Name}, {@code #/definitions/Name} or any JSON pointer. */
    private Optional<JsonNode> resolve(String ref) {
        if (!ref.startsWith("#")) {
            return Optional.empty();
        }
        String pointer = ref.substring(1);
        JsonNode target = pointer.isEmpty() ? root : root.at(pointer);
        return target.isMissingNode() ? Optional.empty() : Optional.of(target);
    }
}
