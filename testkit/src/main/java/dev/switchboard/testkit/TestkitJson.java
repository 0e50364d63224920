package dev.switchboard.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;

/** The one Jackson mapper of the testkit, and the few conversions everyone needs. */
final class TestkitJson {

    // Trailing garbage after a valid value must count as malformed, as it would for a real provider.
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private TestkitJson() {
    }

    /** The parsed value, or a {@link MissingNode} when {@code body} is empty or not exactly one JSON value. */
    static JsonNode parseOrMissing(byte[] body) {
        if (body.length == 0) {
            return MissingNode.getInstance();
        }
        try {
            JsonNode node = MAPPER.readTree(body);
            return node == null ? MissingNode.getInstance() : node;
        } catch (IOException e) {
            return MissingNode.getInstance();
        }
    }

    static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    static ArrayNode array() {
        return MAPPER.createArrayNode();
    }

    /** Compact, single-line JSON text, as an SSE {@code data:} line needs it. */
    static String text(JsonNode node) {
        return JsonSupport.write(node);
    }

    static byte[] bytes(JsonNode node) {
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
