package dev.switchboard.wire.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.wire.internal.JsonFields;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Path-aware reads of one JSON object of a client's Gemini request. Google's REST API accepts every
 * field in lowerCamelCase and in snake_case (its own curl examples use {@code system_instruction} and
 * {@code inline_data}), so each read takes the camelCase name and finds either spelling; an error's
 * {@code param} uses the spelling the client sent. Failures are 400s from {@link JsonFields}.
 *
 * @param node the object
 * @param path its JSON path, e.g. {@code contents[1].parts[0]} (empty at the top level)
 */
record GeminiObjectReader(ObjectNode node, String path) {

    /** The object at {@code path}; a 400 naming {@code path} when {@code value} is not an object. */
    static GeminiObjectReader of(JsonNode value, String path) {
        return new GeminiObjectReader(JsonFields.requireObject(value, path), path);
    }

    /** The key the client used for {@code camel}: the camelCase name, or its snake_case twin when only that is present. */
    String key(String camel) {
        if (node.has(camel)) {
            return camel;
        }
        String snake = snake(camel);
        return node.has(snake) ? snake : camel;
    }

    /** The path of a field of this object. */
    String at(String camel) {
        return JsonFields.path(path, key(camel));
    }

    /** True when the field is present and not null. */
    boolean has(String camel) {
        return opt(camel).isPresent();
    }

    Optional<JsonNode> opt(String camel) {
        return JsonFields.opt(node, key(camel));
    }

    Optional<GeminiObjectReader> optObject(String camel) {
        return opt(camel).map(v -> of(v, at(camel)));
    }

    GeminiObjectReader requireObject(String camel) {
        return of(JsonFields.require(node, key(camel), at(camel)), at(camel));
    }

    Optional<ArrayNode> optArray(String camel) {
        return JsonFields.optArray(node, key(camel), at(camel));
    }

    Optional<String> optString(String camel) {
        return JsonFields.optString(node, key(camel), at(camel));
    }

    String requireString(String camel) {
        return JsonFields.requireString(node, key(camel), at(camel));
    }

    String requireNonEmptyString(String camel) {
        return JsonFields.requireNonEmptyString(node, key(camel), at(camel));
    }

    Optional<Boolean> optBoolean(String camel) {
        return JsonFields.optBoolean(node, key(camel), at(camel));
    }

    Optional<Double> optNumber(String camel, double min, double max) {
        return JsonFields.optNumber(node, key(camel), at(camel), min, max);
    }

    /**
     * A whole number in {@code [min, max]}. Unlike {@link JsonFields#optInt} it accepts {@code 40.0}: the
     * official Java SDK declares some integer fields (e.g. {@code topK}) as floats and sends them so.
     */
    OptionalInt optWholeNumber(String camel, int min, int max) {
        Optional<JsonNode> v = opt(camel);
        if (v.isEmpty()) {
            return OptionalInt.empty();
        }
        JsonNode n = v.get();
        String p = at(camel);
        if (!n.isNumber() || n.doubleValue() != Math.rint(n.doubleValue())) {
            throw JsonFields.wrongType(p, "an integer", n);
        }
        double d = n.doubleValue();
        if (d < min || d > max) {
            throw JsonFields.outOfRange(p, min, max, n);
        }
        return OptionalInt.of((int) d);
    }

    Optional<List<String>> optStringArray(String camel) {
        return JsonFields.optStringArray(node, key(camel), at(camel));
    }

    /** The elements of an array field as objects, each with its own path. */
    static List<GeminiObjectReader> objects(ArrayNode array, String arrayPath) {
        List<GeminiObjectReader> out = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            out.add(of(array.get(i), JsonFields.index(arrayPath, i)));
        }
        return out;
    }

    /** {@code maxOutputTokens} becomes {@code max_output_tokens}. */
    /** {@code snake_case} as {@code camelCase} (Google accepts both spellings); camelCase stays. */
    static String camel(String key) {
        StringBuilder sb = new StringBuilder(key.length());
        boolean up = false;
        for (char c : key.toCharArray()) {
            if (c == '_') {
                up = true;
            } else {
                sb.append(up ? Character.toUpperCase(c) : c);
                up = false;
            }
        }
        return sb.toString();
    }

    static String snake(String camel) {
        StringBuilder sb = new StringBuilder(camel.length() + 4);
        for (int i = 0; i < camel.length(); i++) {
            char c = camel.charAt(i);
            if (Character.isUpperCase(c)) {
                sb.append('_').append(Character.toLowerCase(c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
