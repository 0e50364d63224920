package dev.switchboard.testkit.it.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The bad-input corpus of one chat format, reproducible from a seed: first the cases a grammar of the format's request
 * gives (every field of every seed request given a value of each JSON type it does not have, the field removed, and
 * the structural attacks: the body truncated, nested 10,000 deep, keys repeated, invalid UTF-8, 10,000 messages, one
 * byte over the body limit), then mutations ({@link RequestMutator}) until the corpus has the size asked for.
 */
final class CorpusGenerator {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A value of each JSON type, the replacements of the wrong-type cases. */
    private static final Map<String, JsonNode> TYPES = Map.of(
            "string", NODES.textNode("x"), "integer", NODES.numberNode(7), "negative", NODES.numberNode(-1),
            "fraction", NODES.numberNode(1.5), "boolean", NODES.booleanNode(true), "null", NODES.nullNode(),
            "array", NODES.arrayNode().add(1).add("a"), "object", NODES.objectNode().put("a", 1),
            "empty array", NODES.arrayNode(), "empty object", NODES.objectNode());

    private CorpusGenerator() {
    }

    /**
     * {@code size} cases for a format whose valid requests are {@code seeds}, with bodies up to {@code maxBody} bytes
     * accepted; the grammar's cases come first (all of them when {@code size} allows, else an even sample).
     */
    static List<RequestMutator.Case> corpus(List<JsonNode> seeds, int size, long maxBody, long seed) {
        List<RequestMutator.Case> grammar = new ArrayList<>();
        for (JsonNode s : seeds) {
            wrongTypes(s, grammar);
            structural(s, maxBody, grammar);
        }
        List<RequestMutator.Case> out = new ArrayList<>(size);
        if (grammar.size() > size) {
            // an even sample keeps every kind represented in a small run
            double step = (double) grammar.size() / size;
            for (int i = 0; i < size; i++) {
                out.add(grammar.get((int) (i * step)));
            }
            return out;
        }
        out.addAll(grammar);
        RequestMutator mutator = new RequestMutator(seed);
        for (int i = 0; out.size() < size; i++) {
            out.add(mutator.next(seeds.get(i % seeds.size())));
        }
        return out;
    }

    /** How many cases the grammar gives for these seeds. */
    static int grammarSize(List<JsonNode> seeds, long maxBody) {
        List<RequestMutator.Case> grammar = new ArrayList<>();
        for (JsonNode s : seeds) {
            wrongTypes(s, grammar);
            structural(s, maxBody, grammar);
        }
        return grammar.size();
    }

    private static void wrongTypes(JsonNode seed, List<RequestMutator.Case> out) {
        List<String> paths = new ArrayList<>();
        collect(seed, "", paths);
        for (String path : paths) {
            JsonNode original = at(seed, path);
            for (Map.Entry<String, JsonNode> t : TYPES.entrySet()) {
                if (sameType(original, t.getValue())) {
                    continue;
                }
                JsonNode copy = seed.deepCopy();
                set(copy, path, t.getValue());
                out.add(new RequestMutator.Case(bytes(copy), true, false, path + " as " + t.getKey()));
            }
            JsonNode copy = seed.deepCopy();
            if (remove(copy, path)) {
                out.add(new RequestMutator.Case(bytes(copy), true, false, path + " removed"));
            }
        }
    }

    private static void structural(JsonNode seed, long maxBody, List<RequestMutator.Case> out) {
        String text = seed.toString();
        for (int i = 1; i <= 20; i++) {
            int at = (int) ((long) text.length() * i / 21);
            out.add(raw(text.substring(0, at), "truncated at " + at + " of " + text.length()));
        }
        out.add(raw("[".repeat(10_000) + "]".repeat(10_000), "arrays nested 10,000 deep"));
        out.add(raw("{\"a\":".repeat(10_000) + "1" + "}".repeat(10_000), "objects nested 10,000 deep"));
        // the seed's text starts with "{": what goes in front of its first member is spliced in as text
        out.add(raw("{\"messages\":" + "[".repeat(10_000) + "]".repeat(10_000) + "," + text.substring(1),
                "a field nested 10,000 deep"));
        seed.fieldNames().forEachRemaining(name -> {
            JsonNode value = seed.get(name);
            out.add(new RequestMutator.Case(("{\"" + name + "\":" + value + "," + text.substring(1))
                    .getBytes(StandardCharsets.UTF_8), true, false, "duplicate key " + name + " (same value)"));
            out.add(new RequestMutator.Case(("{\"" + name + "\":12345," + text.substring(1))
                    .getBytes(StandardCharsets.UTF_8), true, false, "duplicate key " + name + " (a number first)"));
        });
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        byte[][] invalid = {{(byte) 0xC3, (byte) 0x28}, {(byte) 0xFF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80}, {(byte) 0xC0, (byte) 0xAF}, {(byte) 0x80}};
        for (int k = 0; k < invalid.length; k++) {
            for (int at : new int[] {b.length / 4, b.length / 2, b.length - 3}) {
                byte[] bad = new byte[b.length + invalid[k].length];
                System.arraycopy(b, 0, bad, 0, at);
                System.arraycopy(invalid[k], 0, bad, at, invalid[k].length);
                System.arraycopy(b, at, bad, at + invalid[k].length, b.length - at);
                out.add(new RequestMutator.Case(bad, false, false, "invalid UTF-8 #" + k + " at byte " + at));
            }
        }
        for (String name : List.of("messages", "contents", "input")) {
            if (seed.has(name) && seed.get(name).isArray() && !seed.get(name).isEmpty()) {
                ObjectNode copy = seed.deepCopy();
                ArrayNode many = NODES.arrayNode();
                for (int i = 0; i < 10_000; i++) {
                    many.add(seed.get(name).get(0).deepCopy());
                }
                copy.set(name, many);
                out.add(new RequestMutator.Case(bytes(copy), true, false, name + " with 10,000 entries"));
            }
        }
        // exactly one byte over the limit, valid JSON up to its last byte
        ObjectNode padded = seed.deepCopy();
        padded.put("x-pad", "");
        int room = (int) (maxBody + 1 - bytes(padded).length);
        padded.put("x-pad", "p".repeat(Math.max(0, room)));
        out.add(new RequestMutator.Case(bytes(padded), false, false, "limit + 1 bytes (" + bytes(padded).length + ")"));
    }

    private static boolean sameType(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return a.isIntegralNumber() == b.isIntegralNumber() && a.asDouble() >= 0 == b.asDouble() >= 0;
        }
        return a.getNodeType() == b.getNodeType() && a.size() == b.size();
    }

    /** Paths of every value below the root: {@code a.b[2].c}. */
    private static void collect(JsonNode node, String path, List<String> out) {
        if (!path.isEmpty()) {
            out.add(path);
        }
        if (node.isObject()) {
            node.fieldNames().forEachRemaining(n -> collect(node.get(n), path.isEmpty() ? n : path + "." + n, out));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collect(node.get(i), path + "[" + i + "]", out);
            }
        }
    }

    private static List<Object> steps(String path) {
        List<Object> steps = new ArrayList<>();
        for (String part : path.split("\\.")) {
            int bracket = part.indexOf('[');
            steps.add(bracket < 0 ? part : part.substring(0, bracket));
            while (bracket >= 0) {
                int end = part.indexOf(']', bracket);
                steps.add(Integer.parseInt(part.substring(bracket + 1, end)));
                bracket = part.indexOf('[', end);
            }
        }
        steps.removeIf(s -> s instanceof String str && str.isEmpty());
        return steps;
    }

    private static JsonNode at(JsonNode root, String path) {
        JsonNode n = root;
        for (Object s : steps(path)) {
            n = s instanceof Integer i ? n.get(i) : n.get((String) s);
        }
        return n;
    }

    private static void set(JsonNode root, String path, JsonNode value) {
        List<Object> steps = steps(path);
        JsonNode parent = root;
        for (Object s : steps.subList(0, steps.size() - 1)) {
            parent = s instanceof Integer i ? parent.get(i) : parent.get((String) s);
        }
        Object last = steps.getLast();
        if (last instanceof Integer i) {
            ((ArrayNode) parent).set(i, value);
        } else {
            ((ObjectNode) parent).set((String) last, value);
        }
    }

    private static boolean remove(JsonNode root, String path) {
        List<Object> steps = steps(path);
        JsonNode parent = root;
        for (Object s : steps.subList(0, steps.size() - 1)) {
            parent = s instanceof Integer i ? parent.get(i) : parent.get((String) s);
        }
        Object last = steps.getLast();
        if (last instanceof String name && parent instanceof ObjectNode o) {
            o.remove(name);
            return true;
        }
        if (last instanceof Integer i && parent instanceof ArrayNode a) {
            a.remove(i);
            return true;
        }
        return false;
    }

    private static RequestMutator.Case raw(String text, String description) {
        return new RequestMutator.Case(text.getBytes(StandardCharsets.UTF_8), false, false, description);
    }

    private static byte[] bytes(JsonNode n) {
        try {
            return JSON.writeValueAsBytes(n);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A description's field path, for checking that an error names it; empty for structural cases. */
    static String fieldOf(String description) {
        int space = description.indexOf(" as ");
        int removed = description.indexOf(" removed");
        int end = space > 0 ? space : removed > 0 ? removed : -1;
        return end > 0 && !description.startsWith("duplicate") ? description.substring(0, end) : "";
    }
}
