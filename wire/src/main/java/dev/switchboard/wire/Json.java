package dev.switchboard.wire;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.GatewayError;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The one configured Jackson mapper of the wire layer, and the few parse/print helpers every format
 * needs. Thread-safe; never reconfigure {@link #MAPPER} after start-up.
 *
 * <p>Parsing never lets a Jackson exception escape: malformed input from a client becomes a 400
 * {@link GatewayError}, so the edge never answers a bad body with a 5xx.
 */
public final class Json {

    /**
     * Shared mapper. Source excerpts are kept out of parse-error locations so an error message never
     * echoes the caller's (possibly secret) body back.
     */
    public static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    // Jackson's default keeps one set of buffers (about 32 KiB) per thread for as long as the thread
                    // lives; with a virtual thread per request that is 32 KiB held by every open stream. A shared
                    // bounded pool lends them for the length of one parse or one write instead.
                    .recyclerPool(JsonRecyclerPools.sharedBoundedPool())
                    .build())
            .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
            .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();

    private static final JsonNodeFactory NODES = MAPPER.getNodeFactory();
    /** Client bodies: one JSON value and nothing after it (whitespace aside). */
    private static final ObjectReader CLIENT_BODY = MAPPER.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private Json() {
    }

    public static ObjectNode object() {
        return NODES.objectNode();
    }

    public static ArrayNode array() {
        return NODES.arrayNode();
    }

    /**
     * Parses a client request body.
     *
     * @throws dev.switchboard.model.GatewayException 400 when the bytes are not one JSON value
     */
    public static JsonNode parse(byte[] body) {
        try {
            JsonNode node = CLIENT_BODY.readTree(body);
            if (node == null || node.isMissingNode()) {
                throw GatewayError.invalidRequest("The request body is empty; expected a JSON object.").toException();
            }
            return node;
        } catch (IOException e) {
            throw GatewayError.invalidRequest("The request body is not valid JSON: " + JsonSyntax.describe(e) + ".").toException();
        }
    }

    /** Parses text; see {@link #parse(byte[])}. */
    public static JsonNode parse(String text) {
        return parse(text.getBytes(StandardCharsets.UTF_8));
    }

    /** Compact JSON text of a node. */
    public static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            // A tree built in memory always serialises; reaching this is a bug, not bad input.
            throw new IllegalStateException("cannot serialise JSON tree", e);
        }
    }

    /** Compact UTF-8 JSON of a node. */
    public static byte[] writeBytes(JsonNode node) {
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise JSON tree", e);
        }
    }
}
