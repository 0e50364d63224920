package dev.switchboard.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.UncheckedIOException;

/**
 * JSON text read and written in tests, with a plain Jackson mapper, so that the checked exceptions are handled once:
 * text that is not JSON, or a tree that cannot be written, is a failure of the test, thrown as
 * {@link UncheckedIOException}.
 */
public final class JsonSupport {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private JsonSupport() {
    }

    /** The JSON value of {@code text} (a {@code MissingNode} when it is empty). */
    public static JsonNode json(String text) {
        return unchecked(() -> MAPPER.readTree(text));
    }

    /** Compact, single-line JSON text of {@code node}, as an SSE {@code data:} line needs it. */
    public static String write(JsonNode node) {
        return unchecked(() -> MAPPER.writeValueAsString(node));
    }

    private interface JsonCall<T> {
        T call() throws JsonProcessingException;
    }

    private static <T> T unchecked(JsonCall<T> call) {
        try {
            return call.call();
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
