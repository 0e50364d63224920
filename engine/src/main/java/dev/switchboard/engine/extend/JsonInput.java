package dev.switchboard.engine.extend;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.GatewayError;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * Strict reading of one JSON object of a catalog write, tracking where it sits ({@code body.rules[2]}) so
 * that every refusal is a 400 naming the exact field and saying what was expected. A JSON {@code null}
 * counts as absent. With {@code limits} off (rows read back from the store) lengths are not checked, so
 * a limit lowered later never makes stored entries unreadable.
 */
public final class JsonInput {
    private final JsonNode node;
    private final String path;
    private final boolean limits;

    private JsonInput(JsonNode node, String path, boolean limits) {
        this.node = node;
        this.path = path;
        this.limits = limits;
    }

    /** The object {@code node}, which a caller sent; {@code path} is its name in errors ("" for a whole body). */
    public static JsonInput of(JsonNode node, String path) {
        return object(node, path, true);
    }

    /** The object {@code node} as stored by the gateway itself: shapes are checked, lengths are not. */
    public static JsonInput stored(JsonNode node, String path) {
        return object(node, path, false);
    }

    private static JsonInput object(JsonNode node, String path, boolean limits) {
        if (node == null || !node.isObject()) {
            throw GatewayError.invalid(path.isEmpty() ? "body" : path, (path.isEmpty() ? "The request body" : path)
                    + ": expected a JSON object").toException();
        }
        return new JsonInput(node, path, limits);
    }

    public JsonNode node() {
        return node;
    }

    public String path() {
        return path;
    }

    boolean limits() {
        return limits;
    }

    /** The error name of a field of this object. */
    public String field(String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    /** Whether the field is present and not null. */
    public boolean has(String name) {
        JsonNode n = node.get(name);
        return n != null && !n.isNull();
    }

    /**
     * Refuses fields the gateway sets itself ({@code gatewayOwned}, a 400 saying so) and any other field not in
     * {@code allowed} (a 400 listing what is accepted).
     */
    public void allowOnly(Set<String> allowed, Set<String> gatewayOwned) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (gatewayOwned.contains(f)) {
                throw GatewayError.invalid(field(f), field(f) + " is set by the gateway and cannot be written; remove it")
                        .toException();
            }
            if (!allowed.contains(f)) {
                throw GatewayError.invalid(field(f), "Unknown field '" + field(f) + "'; expected one of "
                        + String.join(", ", new TreeSet<>(allowed)) + ".").toException();
            }
        }
    }

    /** A string of at most {@code max} characters (after trimming when {@code strip}), or empty when absent. */
    public Optional<String> text(String name, int max, boolean strip) {
        JsonNode n = node.get(name);
        if (n == null || n.isNull()) {
            return Optional.empty();
        }
        if (!n.isTextual()) {
            throw GatewayError.invalid(field(name), field(name) + ": expected a string").toException();
        }
        String v = strip ? n.asText().strip() : n.asText();
        checkLength(field(name), v, max);
        return Optional.of(v);
    }

    /** A present, non-blank string of at most {@code max} characters, trimmed. */
    public String requiredText(String name, int max) {
        String v = text(name, max, true).orElseThrow(() -> GatewayError.invalid(field(name), field(name) + ": required")
                .toException());
        if (v.isEmpty()) {
            throw GatewayError.invalid(field(name), field(name) + ": expected a non-empty string").toException();
        }
        return v;
    }

    void checkLength(String where, String v, int max) {
        if (limits && v.length() > max) {
            throw GatewayError.invalid(where, where + ": expected at most " + max + " characters, got " + v.length())
                    .toException();
        }
    }

    public Optional<Boolean> bool(String name) {
        JsonNode n = node.get(name);
        if (n == null || n.isNull()) {
            return Optional.empty();
        }
        if (!n.isBoolean()) {
            throw GatewayError.invalid(field(name), field(name) + ": expected true or false").toException();
        }
        return Optional.of(n.asBoolean());
    }

    /** A number in [min, max]. */
    public OptionalDouble number(String name, double min, double max) {
        JsonNode n = node.get(name);
        if (n == null || n.isNull()) {
            return OptionalDouble.empty();
        }
        if (!n.isNumber() || n.asDouble() < min || n.asDouble() > max) {
            throw GatewayError.invalid(field(name), field(name) + ": expected a number from " + num(min) + " to " + num(max))
                    .toException();
        }
        return OptionalDouble.of(n.asDouble());
    }

    /** A whole number in [min, max]. */
    public OptionalLong integer(String name, long min, long max) {
        JsonNode n = node.get(name);
        if (n == null || n.isNull()) {
            return OptionalLong.empty();
        }
        if (!n.isIntegralNumber() || !n.canConvertToLong() || n.asLong() < min || n.asLong() > max) {
            throw GatewayError.invalid(field(name), field(name) + ": expected a whole number from " + min + " to " + max)
                    .toException();
        }
        return OptionalLong.of(n.asLong());
    }

    /** An array of at most {@code maxItems} strings of at most {@code maxEach} characters; absent: empty. */
    public List<String> texts(String name, int maxItems, int maxEach) {
        JsonNode n = array(name, maxItems, "strings");
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n.size(); i++) {
            JsonNode e = n.get(i);
            String where = field(name) + "[" + i + "]";
            if (!e.isTextual()) {
                throw GatewayError.invalid(where, where + ": expected a string").toException();
            }
            checkLength(where, e.asText(), maxEach);
            out.add(e.asText());
        }
        return out;
    }

    /** The nested object under {@code name}, if present. */
    public Optional<JsonInput> object(String name) {
        JsonNode n = node.get(name);
        if (n == null || n.isNull()) {
            return Optional.empty();
        }
        return Optional.of(object(n, field(name), limits));
    }

    /** An array of at most {@code maxItems} objects; absent: empty. */
    public List<JsonInput> objects(String name, int maxItems) {
        JsonNode n = array(name, maxItems, "objects");
        List<JsonInput> out = new ArrayList<>();
        for (int i = 0; i < n.size(); i++) {
            out.add(object(n.get(i), field(name) + "[" + i + "]", limits));
        }
        return out;
    }

    private JsonNode array(String name, int maxItems, String of) {
        JsonNode n = node.get(name);
        if (n == null || n.isNull()) {
            return com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
        }
        if (!n.isArray()) {
            throw GatewayError.invalid(field(name), field(name) + ": expected an array of " + of).toException();
        }
        if (limits && n.size() > maxItems) {
            throw GatewayError.invalid(field(name), field(name) + ": expected at most " + maxItems + " entries, got " + n.size())
                    .toException();
        }
        return n;
    }

    private static String num(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}
