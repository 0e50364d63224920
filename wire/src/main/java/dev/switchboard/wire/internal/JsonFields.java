package dev.switchboard.wire.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.GatewayException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Typed, path-aware reads of client JSON for the request readers of every format. Each read either
 * returns a value of the expected type or throws a 400 {@link GatewayException} whose {@code param} is
 * the JSON path of the field (e.g. {@code messages[2].content[0].image_url.url}) and whose message says
 * what was expected and what was found. A JSON {@code null} counts as "not given", because many
 * clients serialise unset optional fields as null.
 *
 * <p>Not part of the wire API: formats share it, callers outside {@code wire} must not.
 */
public final class JsonFields {
    private JsonFields() {
    }

    /** {@code parent.name}, or {@code name} at the top level. */
    public static String path(String parent, String name) {
        return parent.isEmpty() ? name : parent + "." + name;
    }

    /** {@code path[i]}. */
    public static String index(String path, int i) {
        return path + "[" + i + "]";
    }

    public static GatewayException invalid(String path, String message) {
        return GatewayError.invalid(path, message).toException();
    }

    /** The field, when present and not null. */
    public static Optional<JsonNode> opt(JsonNode obj, String name) {
        JsonNode v = obj.get(name);
        return v == null || v.isNull() ? Optional.empty() : Optional.of(v);
    }

    public static JsonNode require(JsonNode obj, String name, String path) {
        return opt(obj, name).orElseThrow(() -> invalid(path, "`" + path + "` is required."));
    }

    /** A request body, which must be a JSON object: a 400 not tied to a field otherwise. */
    public static ObjectNode requireBody(JsonNode body) {
        if (body instanceof ObjectNode b) {
            return b;
        }
        throw GatewayError.invalidRequest("The request body must be a JSON object, got " + describe(body) + ".")
                .toException();
    }

    public static ObjectNode requireObject(JsonNode node, String path) {
        return requireKind(node, ObjectNode.class, path, "an object");
    }

    public static Optional<ObjectNode> optObject(JsonNode obj, String name, String path) {
        return opt(obj, name).map(v -> requireObject(v, path));
    }

    public static ArrayNode requireArray(JsonNode node, String path) {
        return requireKind(node, ArrayNode.class, path, "an array");
    }

    /** {@code node} as a {@code kind}, or a 400 saying it is not {@code expected}. */
    private static <T extends JsonNode> T requireKind(JsonNode node, Class<T> kind, String path, String expected) {
        if (kind.isInstance(node)) {
            return kind.cast(node);
        }
        throw wrongType(path, expected, node);
    }

    public static Optional<ArrayNode> optArray(JsonNode obj, String name, String path) {
        return opt(obj, name).map(v -> requireArray(v, path));
    }

    public static String requireText(JsonNode node, String path) {
        if (node.isTextual()) {
            return node.textValue();
        }
        throw wrongType(path, "a string", node);
    }

    public static Optional<String> optString(JsonNode obj, String name, String path) {
        return opt(obj, name).map(v -> requireText(v, path));
    }

    public static String requireString(JsonNode obj, String name, String path) {
        return requireText(require(obj, name, path), path);
    }

    /** A required, non-empty string. */
    public static String requireNonEmptyString(JsonNode obj, String name, String path) {
        String s = requireString(obj, name, path);
        if (s.isEmpty()) {
            throw invalid(path, "`" + path + "` must not be empty.");
        }
        return s;
    }

    public static Optional<Boolean> optBoolean(JsonNode obj, String name, String path) {
        return opt(obj, name).map(v -> {
            if (v.isBoolean()) {
                return v.booleanValue();
            }
            throw wrongType(path, "a boolean", v);
        });
    }

    /** A number in {@code [min, max]}. */
    public static Optional<Double> optNumber(JsonNode obj, String name, String path, double min, double max) {
        return opt(obj, name).map(v -> {
            if (!v.isNumber()) {
                throw wrongType(path, "a number between " + fmt(min) + " and " + fmt(max), v);
            }
            double d = v.doubleValue();
            if (!(d >= min && d <= max)) {
                throw invalid(path, "`" + path + "` must be between " + fmt(min) + " and " + fmt(max) + ", got "
                        + v.asText() + ".");
            }
            return d;
        });
    }

    /** An integer in {@code [min, max]}. */
    public static OptionalInt optInt(JsonNode obj, String name, String path, int min, int max) {
        Optional<JsonNode> v = opt(obj, name);
        if (v.isEmpty()) {
            return OptionalInt.empty();
        }
        return OptionalInt.of((int) checkInteger(v.get(), path, min, max));
    }

    public static OptionalLong optLong(JsonNode obj, String name, String path) {
        Optional<JsonNode> v = opt(obj, name);
        if (v.isEmpty()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(checkInteger(v.get(), path, Long.MIN_VALUE, Long.MAX_VALUE));
    }

    /** An array of strings. */
    public static Optional<List<String>> optStringArray(JsonNode obj, String name, String path) {
        return optArray(obj, name, path).map(a -> {
            List<String> out = new ArrayList<>(a.size());
            for (int i = 0; i < a.size(); i++) {
                out.add(requireText(a.get(i), index(path, i)));
            }
            return out;
        });
    }

    private static long checkInteger(JsonNode v, String path, long min, long max) {
        if (!v.isIntegralNumber()) {
            throw wrongType(path, "an integer", v);
        }
        if (!v.canConvertToLong() || v.longValue() < min || v.longValue() > max) {
            throw outOfRange(path, min, max, v);
        }
        return v.longValue();
    }

    /** 400: the number {@code found} at {@code path} is outside {@code [min, max]}, said the way a person would. */
    public static GatewayException outOfRange(String path, long min, long max, JsonNode found) {
        boolean low = found.isIntegralNumber() ? found.bigIntegerValue().compareTo(java.math.BigInteger.valueOf(min)) < 0
                : found.doubleValue() < min;
        return invalid(path, "`" + path + "` must be " + range(min, max, low) + ", got " + found.asText() + ".");
    }

    /** The allowed range in words, for a value found below it ({@code low}) or above it. */
    private static String range(long min, long max, boolean low) {
        boolean openAbove = max == Integer.MAX_VALUE || max == Long.MAX_VALUE;
        boolean openBelow = min == Integer.MIN_VALUE || min == Long.MIN_VALUE;
        if (openAbove && openBelow) {
            return "between " + min + " and " + max;
        }
        if (openAbove) {
            return low ? "at least " + min : "at most " + max;
        }
        if (openBelow) {
            return "at most " + max;
        }
        return "between " + min + " and " + max;
    }

    public static GatewayException wrongType(String path, String expected, JsonNode found) {
        return invalid(path, "`" + path + "` must be " + expected + ", got " + describe(found) + ".");
    }

    /** A short name of a node's JSON type, for error messages (never its content). */
    public static String describe(JsonNode n) {
        if (n == null || n.isMissingNode()) {
            return "nothing";
        }
        return switch (n.getNodeType()) {
            case ARRAY -> "an array";
            case OBJECT, POJO -> "an object";
            case STRING -> "a string";
            case NUMBER -> n.isIntegralNumber() ? "an integer" : "a number";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            default -> "an unsupported value";
        };
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}
