package dev.switchboard.testkit.it.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.testkit.JsonSupport;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** What every cell sends and expects, the same for every format, and the helpers the drivers share. */
final class Fixtures {
    static final ObjectMapper JSON = new ObjectMapper();

    /** The question of every cell; the fake echoes it in its text answers. */
    static final String PROMPT = "What is the weather in Oslo? Reply in JSON when JSON is asked for.";

    static final String TOOL_NAME = "get_weather";
    static final String TOOL_DESCRIPTION = "The current weather in a city.";
    /** The offered function's parameters; the fake fills the required {@code city} with {@code "Paris"}. */
    static final ObjectNode TOOL_PARAMETERS = object("""
            {"type":"object","properties":{"city":{"type":"string","description":"City name"}},"required":["city"]}""");
    static final ObjectNode EXPECTED_ARGUMENTS = object("{\"city\":\"Paris\"}");

    /** The structured-output schema of the SCHEMA cells (closed, as strict modes require). */
    static final ObjectNode SCHEMA = object("""
            {"type":"object","properties":{"city":{"type":"string"},"temp_c":{"type":"number"}},\
            "required":["city","temp_c"],"additionalProperties":false}""");
    /** What the scripted upstream answers when the request asked for JSON output. */
    static final String JSON_ANSWER = "{\"city\":\"Oslo\",\"temp_c\":4}";
    /** What it answers when the request did not: prose, which no JSON check accepts. */
    static final String PROSE_ANSWER = "It is 4 degrees in Oslo (no JSON output was asked for).";

    /** A 1x1 PNG, base64 (standard alphabet). */
    static final String PNG_BASE64 =
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    static final String PNG_TYPE = "image/png";
    static final String PNG_DATA_URL = "data:" + PNG_TYPE + ";base64," + PNG_BASE64;

    private Fixtures() {
    }

    static ObjectNode object(String json) {
        return (ObjectNode) parse(json).orElseThrow();
    }

    static ObjectNode object() {
        return JSON.createObjectNode();
    }

    /** The JSON value of {@code text}, or empty when it is not exactly one JSON value. */
    static Optional<JsonNode> parse(String text) {
        try {
            JsonNode node = JSON.readTree(text);
            return Optional.ofNullable(node).filter(n -> !n.isMissingNode());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    static String write(JsonNode node) {
        return JsonSupport.write(node);
    }

    /** Tool-call arguments as a JSON value: parsed from a string, or taken as they are. */
    static JsonNode arguments(JsonNode raw) {
        if (raw.isTextual()) {
            return parse(raw.asText()).orElse(raw);
        }
        return raw;
    }

    /** One server-sent event: its {@code event:} name (empty when unnamed) and its joined {@code data:} lines. */
    record SseFrame(String event, String data) {
    }

    /** The events of an SSE body; comment lines (heartbeats) are skipped. */
    static List<SseFrame> sse(String body) {
        List<SseFrame> frames = new ArrayList<>();
        String event = "";
        StringBuilder data = null;
        for (String line : (body + "\n\n").split("\r?\n", -1)) {
            if (line.isEmpty()) {
                if (data != null) {
                    frames.add(new SseFrame(event, data.toString()));
                }
                event = "";
                data = null;
            } else if (line.startsWith(":")) {
                continue;
            } else if (line.startsWith("event:")) {
                event = line.substring(6).strip();
            } else if (line.startsWith("data:")) {
                String value = line.substring(5);
                value = value.startsWith(" ") ? value.substring(1) : value;
                data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
            }
        }
        return frames;
    }

    static String excerpt(String text, int max) {
        String flat = text.replace("\r", "").replace("\n", "\\n");
        return flat.length() <= max ? flat : flat.substring(0, max) + "...";
    }
}
