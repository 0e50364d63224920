package dev.switchboard.engine.structured;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Optional;

/**
 * Recovers the JSON payload of an answer that was asked for JSON (spec 2.5) but came wrapped in prose or a
 * Markdown code fence. Pure and linear in the length of the text.
 *
 * <p>Contract of {@link #extract}:
 * <ul>
 *   <li>Text that already is exactly one valid JSON value (surrounding whitespace allowed) needs nothing:
 *       empty.
 *   <li>Otherwise the text is scanned left to right for candidates: the content of a code fence
 *       ({@code ```} or {@code ~~~}, with or without a language tag; any JSON value), or a bare object or
 *       array (a balanced {@code {...}} or {@code [...]}, brackets inside JSON strings ignored). The first
 *       candidate that is one complete, strictly valid JSON value wins and is returned exactly as written
 *       (trimmed), never re-serialised.
 *   <li>A candidate that is not valid is skipped whole: nothing nested inside it is tried, because a
 *       fragment of a broken answer (an inner object of JSON with a comment in it, of a truncated answer)
 *       is not the answer. An opening bracket that never closes ends the scan for the same reason.
 *   <li>Nothing found: empty, and the caller keeps the original text unchanged.
 * </ul>
 * "Valid" is strict RFC 8259 JSON: no comments, single quotes, trailing commas or NaN. Conformance to a
 * {@code json_schema} is not checked (the first valid value is returned even if another one matched the
 * schema better): the gateway steers, it does not validate.
 */
public final class JsonExtraction {
    private static final ObjectMapper STRICT = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private JsonExtraction() {
    }

    /** The JSON payload to return instead of {@code text}, or empty when the text should stay as it is. */
    public static Optional<String> extract(String text) {
        if (text.isBlank() || isJson(text.strip())) {
            return Optional.empty();
        }
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if ((c == '`' || c == '~') && text.startsWith(Character.toString(c).repeat(3), i)) {
                Fence fence = fence(text, i, c);
                String content = text.substring(fence.contentStart(), fence.contentEnd()).strip();
                if (isJson(content)) {
                    return Optional.of(content);
                }
                i = fence.after();
            } else if (c == '{' || c == '[') {
                int end = closing(text, i);
                if (end == UNCLOSED) {
                    return Optional.empty();
                }
                if (end > 0) {
                    String candidate = text.substring(i, end + 1);
                    if (isJson(candidate)) {
                        return Optional.of(candidate);
                    }
                    i = end + 1;
                } else {
                    i = -end + 1; // a mismatched closer: skip past it
                }
            } else {
                i++;
            }
        }
        return Optional.empty();
    }

    static boolean isJson(String s) {
        if (s.isEmpty()) {
            return false;
        }
        try {
            STRICT.readTree(s);
            return true;
        } catch (JsonProcessingException e) {
            return false;
        }
    }

    /** Where a fence's content lies, and where scanning resumes after the fence. */
    private record Fence(int contentStart, int contentEnd, int after) {
    }

    /** The fence opening at {@code at} (three or more {@code marker}s, then an optional language tag). */
    private static Fence fence(String text, int at, char marker) {
        int i = at;
        while (i < text.length() && text.charAt(i) == marker) {
            i++;
        }
        String closer = text.substring(at, i);
        int lineEnd = text.indexOf('\n', i);
        if (lineEnd < 0) {
            lineEnd = text.length();
        }
        // a language tag ("json", "JSON5") is a word followed by a space, a bracket or the end of the line;
        // an inline ```true``` has no tag
        int tagEnd = i;
        while (tagEnd < lineEnd && isTagChar(text.charAt(tagEnd))) {
            tagEnd++;
        }
        boolean tagged = tagEnd == lineEnd || Character.isWhitespace(text.charAt(tagEnd))
                || text.charAt(tagEnd) == '{' || text.charAt(tagEnd) == '[';
        int contentStart = tagged ? tagEnd : i;
        if (text.substring(contentStart, lineEnd).isBlank()) {
            contentStart = Math.min(lineEnd + 1, text.length());
        }
        int close = text.indexOf(closer, contentStart);
        if (close < 0) {
            return new Fence(contentStart, text.length(), text.length());
        }
        return new Fence(contentStart, close, close + closer.length());
    }

    private static boolean isTagChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '+' || c == '.';
    }

    private static final int UNCLOSED = Integer.MIN_VALUE;

    /**
     * The index of the bracket closing the one at {@code open}; {@code -k} when a mismatched closer at
     * {@code k} ends the candidate; {@link #UNCLOSED} when the text ends first.
     */
    private static int closing(String text, int open) {
        char[] stack = new char[16];
        int depth = 0;
        boolean inString = false;
        for (int i = open; i < text.length(); i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
                continue;
            }
            switch (c) {
                case '"' -> inString = true;
                case '{', '[' -> {
                    if (depth == stack.length) {
                        stack = java.util.Arrays.copyOf(stack, depth * 2);
                    }
                    stack[depth++] = c == '{' ? '}' : ']';
                }
                case '}', ']' -> {
                    if (stack[--depth] != c) {
                        return -i;
                    }
                    if (depth == 0) {
                        return i;
                    }
                }
                default -> { }
            }
        }
        return UNCLOSED;
    }
}
