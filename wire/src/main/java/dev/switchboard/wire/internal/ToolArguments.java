package dev.switchboard.wire.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.wire.Json;
import java.io.IOException;

/**
 * A tool call's arguments, kept as the JSON text the model produced, as the object the formats that need one
 * (Anthropic's {@code input}, Gemini's {@code args}) require: empty text is {@code {}}, and so is text that is
 * not a JSON object (another provider's model's malformed output), which those formats cannot express at all.
 *
 * <p>Not part of the wire API: formats share it, callers outside {@code wire} must not.
 */
public final class ToolArguments {
    private ToolArguments() {
    }

    public static ObjectNode object(String json) {
        if (json.isBlank()) {
            return Json.object();
        }
        try {
            JsonNode node = Json.MAPPER.readTree(json);
            return node instanceof ObjectNode o ? o : Json.object();
        } catch (IOException e) {
            return Json.object();
        }
    }
}
