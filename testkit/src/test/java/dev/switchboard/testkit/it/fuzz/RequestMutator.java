package dev.switchboard.testkit.it.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

/**
 * Makes bad requests from good ones, reproducibly (one seeded {@link Random}): most cases change one place of a
 * valid JSON body (a value replaced by something nasty, a field removed or added, a value wrapped), the rest break
 * the text itself (truncated, not JSON, nested too deep, numbers JSON does not have). Each case says what it did,
 * so a failure can be reproduced by hand.
 */
final class RequestMutator {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

    /** One generated request: the body, whether it is still valid JSON, and what was changed. */
    record Case(byte[] body, boolean validJson, boolean rootReplaced, String description) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final Random random;

    RequestMutator(long seed) {
        this.random = new Random(seed);
    }

    Case next(JsonNode seed) {
        int pick = random.nextInt(100);
        if (pick < 12) {
            return textMutation(seed);
        }
        JsonNode copy = seed.deepCopy();
        List<Place> places = new ArrayList<>();
        collect(copy, "", null, null, -1, places);
        Place place = places.get(random.nextInt(places.size()));
        int op = random.nextInt(10);
        if (op < 6 || place.parent == null) {
            JsonNode value = nasty();
            if (place.parent == null) {
                return new Case(bytes(value), true, true, "the whole body replaced by " + brief(value));
            }
            place.set(value);
            return new Case(bytes(copy), true, false, place.path + " = " + brief(value));
        }
        if (op < 8 && place.parent instanceof ObjectNode o) {
            o.remove(place.name);
            return new Case(bytes(copy), true, false, place.path + " removed");
        }
        if (op < 9) {
            JsonNode target = place.value;
            if (target instanceof ObjectNode o) {
                String name = pickName();
                JsonNode value = nasty();
                o.set(name, value);
                return new Case(bytes(copy), true, false, place.path + "." + name + " added = " + brief(value));
            }
            ArrayNode wrapped = NODES.arrayNode().add(place.value);
            place.set(random.nextBoolean() ? wrapped : NODES.objectNode().set("value", place.value));
            return new Case(bytes(copy), true, false, place.path + " wrapped");
        }
        if (place.value instanceof ArrayNode a && !a.isEmpty()) {
            JsonNode first = a.get(0);
            int n = 1 + random.nextInt(40);
            for (int i = 0; i < n; i++) {
                a.add(first.deepCopy());
            }
            return new Case(bytes(copy), true, false, place.path + " repeated " + n + " more times");
        }
        place.set(NODES.nullNode());
        return new Case(bytes(copy), true, false, place.path + " = null");
    }

    private Case textMutation(JsonNode seed) {
        String text = seed.toString();
        return switch (random.nextInt(10)) {
            case 0 -> {
                int at = random.nextInt(Math.max(1, text.length()));
                yield raw(text.substring(0, at), "truncated at " + at);
            }
            case 1 -> raw("", "empty body");
            case 2 -> raw("[".repeat(5000) + "]".repeat(5000), "arrays nested 5000 deep");
            case 3 -> raw("{\"model\": NaN, \"x\": Infinity}", "NaN and Infinity");
            case 4 -> raw(text.replaceFirst("\\{", "{/* comment */ "), "a comment");
            case 5 -> raw(text.replaceFirst("\\{", "{\"max_tokens\": 1e999999, "), "an enormous number");
            case 6 -> raw(text + " trailing", "text after the JSON");
            case 7 -> {
                byte[] b = text.getBytes(StandardCharsets.UTF_8);
                byte[] bad = new byte[b.length + 3];
                System.arraycopy(b, 0, bad, 0, b.length / 2);
                bad[b.length / 2] = (byte) 0xC3;
                bad[b.length / 2 + 1] = (byte) 0x28;
                bad[b.length / 2 + 2] = (byte) 0xFF;
                System.arraycopy(b, b.length / 2, bad, b.length / 2 + 3, b.length - b.length / 2);
                yield new Case(bad, false, false, "invalid UTF-8 in the middle");
            }
            case 8 -> raw("{\"a\":\"" + "x".repeat(random.nextInt(200)) + "\\q\"}", "an invalid escape");
            default -> raw("{'model': 'single quotes'}", "single-quoted keys");
        };
    }

    private static Case raw(String text, String description) {
        return new Case(text.getBytes(StandardCharsets.UTF_8), false, false, description);
    }

    private JsonNode nasty() {
        List<Function<Random, JsonNode>> values = List.of(
                r -> NODES.numberNode(0), r -> NODES.numberNode(-1), r -> NODES.numberNode(1),
                r -> NODES.numberNode(Integer.MAX_VALUE), r -> NODES.numberNode(Integer.MAX_VALUE + 1L),
                r -> NODES.numberNode(3_000_000_000L), r -> NODES.numberNode(Long.MAX_VALUE), r -> NODES.numberNode(Long.MIN_VALUE),
                r -> NODES.numberNode(new BigInteger("9223372036854775808")),
                r -> NODES.numberNode(new BigInteger("-99999999999999999999999999")),
                r -> NODES.numberNode(new BigDecimal("1e308")), r -> NODES.numberNode(new BigDecimal("1e400")),
                r -> NODES.numberNode(0.5), r -> NODES.numberNode(-0.0), r -> NODES.numberNode(2.5),
                r -> NODES.textNode(""), r -> NODES.textNode(" "), r -> NODES.textNode("x"), r -> NODES.textNode("auto"),
                r -> NODES.textNode("x".repeat(1 + r.nextInt(20_000))), r -> NODES.textNode("\u0000\u0001"),
                r -> NODES.textNode("\uD83D\uDE00 ünïcödé"), r -> NODES.textNode("\uD800"),
                r -> NODES.textNode("data:image/png;base64,!!!not-base64!!!"),
                r -> NODES.textNode("data:text/plain;base64,aGVsbG8="),
                r -> NODES.textNode("data:image/png;base64," + PNG_1X1),
                r -> NODES.textNode("data:;base64,"), r -> NODES.textNode("ftp://files.invalid/x.png"),
                r -> NODES.textNode("middle-out"), r -> NODES.textNode("user"), r -> NODES.textNode("tool"),
                r -> NODES.textNode("function"), r -> NODES.textNode("image_url"), r -> NODES.textNode("required"),
                r -> NODES.textNode("chat-basic"), r -> NODES.textNode("no-such-model"),
                r -> NODES.booleanNode(true), r -> NODES.booleanNode(false), r -> NODES.nullNode(),
                r -> NODES.arrayNode(), r -> NODES.objectNode(), r -> NODES.arrayNode().add(1).add("two").add(NODES.nullNode()),
                r -> NODES.arrayNode().add("a").add("b").add("c").add("d").add("e"),
                r -> NODES.objectNode().put("type", "text").put("text", "hi"),
                r -> NODES.objectNode().put("type", "image_url").set("image_url",
                        NODES.objectNode().put("url", "data:image/png;base64,###")),
                r -> NODES.objectNode().put("role", "tool").put("tool_call_id", "call_nobody").put("content", "42"),
                r -> NODES.objectNode().put("type", "tool_result").put("tool_use_id", "toolu_nobody").put("content", "42"),
                r -> NODES.objectNode().set("functionResponse", NODES.objectNode().put("name", "nobody")
                        .set("response", NODES.objectNode().put("x", 1))),
                r -> NODES.objectNode().put("type", "function_call_output").put("call_id", "call_nobody").put("output", "1"),
                r -> NODES.objectNode().set("inlineData", NODES.objectNode().put("mimeType", "text/plain").put("data", "aGk=")),
                r -> NODES.objectNode().set("source", NODES.objectNode().put("type", "base64").put("media_type", "image/png")
                        .put("data", "***")),
                r -> deep(r.nextInt(300)),
                r -> big(r.nextInt(2000)),
                r -> NODES.textNode(Base64.getEncoder().encodeToString(new byte[1 + r.nextInt(64)])));
        return values.get(random.nextInt(values.size())).apply(random);
    }

    private static JsonNode deep(int depth) {
        JsonNode n = NODES.textNode("bottom");
        for (int i = 0; i < depth; i++) {
            n = NODES.arrayNode().add(n);
        }
        return n;
    }

    private static JsonNode big(int n) {
        ArrayNode a = NODES.arrayNode();
        for (int i = 0; i < n; i++) {
            a.add("s" + i);
        }
        return a;
    }

    private String pickName() {
        List<String> names = List.of("max_tokens", "temperature", "models", "fallbacks", "transforms", "skill", "skills",
                "stop", "stop_sequences", "tools", "tool_choice", "response_format", "reasoning", "thinking", "stream",
                "reasoning_effort", "thinking_budget", "top_k", "seed", "metadata", "__proto__", "unknown_field",
                "maxOutputTokens", "stopSequences", "generationConfig", "previous_response_id", "max_output_tokens");
        return names.get(random.nextInt(names.size()));
    }

    private static byte[] bytes(JsonNode n) {
        try {
            return JSON.writeValueAsBytes(n);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String brief(JsonNode n) {
        String s = n.toString();
        return s.length() > 80 ? s.substring(0, 77) + "..." : s;
    }

    /** A place in the tree: its path and how to replace it. */
    private record Place(String path, JsonNode value, JsonNode parent, String name, int index) {
        void set(JsonNode v) {
            if (parent instanceof ObjectNode o) {
                o.set(name, v);
            } else if (parent instanceof ArrayNode a) {
                a.set(index, v);
            }
        }
    }

    private static void collect(JsonNode node, String path, JsonNode parent, String name, int index, List<Place> out) {
        out.add(new Place(path.isEmpty() ? "(root)" : path, node, parent, name, index));
        if (node instanceof ObjectNode o) {
            o.properties().forEach(e -> collect(e.getValue(), path.isEmpty() ? e.getKey() : path + "." + e.getKey(), o,
                    e.getKey(), -1, out));
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                collect(a.get(i), path + "[" + i + "]", a, null, i, out);
            }
        }
    }
}
