package dev.switchboard.wire.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.GatewayError;
import dev.switchboard.wire.Json;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The spec's error envelope, {@code {"error": {message, type, param, code}}} with {@code code} the HTTP
 * status as a string and {@code param} null when no field is to blame: what every chat endpoint answers
 * (spec 7), and what the formats that add to it (a top-level {@code type}, Google's {@code status}) start
 * from.
 *
 * <p>Not part of the wire API: formats share it, callers outside {@code wire} must not.
 */
public final class ErrorEnvelope {
    private ErrorEnvelope() {
    }

    /** {@code {"error": {...}}}. */
    public static ObjectNode body(GatewayError e) {
        ObjectNode root = Json.object();
        root.set("error", error(e));
        return root;
    }

    /** The inner {@code error} object. */
    public static ObjectNode error(GatewayError e) {
        ObjectNode err = Json.object();
        err.put("message", e.message());
        err.put("type", e.type());
        if (e.param().isPresent()) {
            err.put("param", e.param().get());
        } else {
            err.putNull("param");
        }
        err.put("code", Integer.toString(e.status()));
        return err;
    }

    /**
     * The error of an upstream that answers with this envelope (OpenAI chat completions and Responses, and
     * the servers compatible with them), which may also come as a bare string, a top-level message, or no
     * JSON at all. The upstream's message is kept (as {@link UpstreamErrors} cleans it) so the engine can
     * report or inspect it (e.g. to detect a prefill rejection), and so is its {@code param}; type and
     * retryability follow the status, whatever slug the upstream used (OpenAI says "tokens" for a rate
     * limit). A body that is not the envelope is the message itself.
     */
    public static GatewayError fromUpstream(int status, byte[] body) {
        int s = UpstreamErrors.status(status);
        JsonNode err = UpstreamErrors.json(body).map(j -> j.isArray() && !j.isEmpty() ? j.get(0) : j)
                .map(j -> j.has("error") ? j.get("error") : j)
                .orElse(null);
        String message = null;
        String param = null;
        if (err != null && err.isTextual()) {
            message = err.textValue();
        } else if (err != null && err.isObject()) {
            message = text(err.get("message"));
            param = text(err.get("param"));
        }
        if (message == null || message.isBlank()) {
            String raw = new String(body, StandardCharsets.UTF_8).strip();
            message = raw.isEmpty() ? UpstreamErrors.withoutMessage(status) : raw;
        }
        return UpstreamErrors.error(s, message, Optional.ofNullable(param).filter(p -> !p.isBlank()));
    }

    private static String text(JsonNode n) {
        return n != null && n.isTextual() ? n.textValue() : null;
    }
}
