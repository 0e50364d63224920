package dev.switchboard.wire.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.GatewayError;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.ErrorEnvelope;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The error envelope {@code {"error": {message, type, param, code}}} both ways: rendered for our
 * callers (spec 7, {@code code} is the HTTP status as a string) and parsed from OpenAI-compatible
 * upstreams, which use the same envelope with their own {@code code} slugs, or sometimes a bare string,
 * a top-level message, or no JSON at all.
 */
final class OpenAiErrors {
    private static final int MAX_MESSAGE = 1000;
    /** Provider keys some upstreams quote (partly masked) in 401 messages; never pass them on. */
    private static final Pattern KEY_LIKE = Pattern.compile("\\b(sk|rk|pk)-[A-Za-z0-9_*\\-]{6,}");

    private OpenAiErrors() {
    }

    static ObjectNode body(GatewayError e) {
        return ErrorEnvelope.body(e);
    }

    /** The inner {@code error} object (also used in-band on a failed stream). */
    static ObjectNode error(GatewayError e) {
        return ErrorEnvelope.error(e);
    }

    /**
     * The error an upstream answered with. The status decides retryability; the upstream's message is
     * kept (key-like tokens redacted, length capped) so the engine can report or inspect it (e.g. to
     * detect a prefill rejection), and so is its {@code param}; the {@code type} is our slug for the
     * status. A status outside 4xx/5xx is reported as 502.
     */
    static GatewayError fromUpstream(int status, byte[] body) {
        int s = status >= 400 && status <= 599 ? status : 502;
        Optional<JsonNode> json = parse(body);
        JsonNode err = json.map(j -> j.isArray() && !j.isEmpty() ? j.get(0) : j)
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
            message = raw.isEmpty() ? "The upstream answered HTTP " + status + " without a message." : raw;
        }
        return new GatewayError(s, type(s), clean(message), Optional.ofNullable(param).filter(p -> !p.isBlank()),
                GatewayError.retryableStatus(s));
    }

    private static Optional<JsonNode> parse(byte[] body) {
        try {
            return Optional.ofNullable(Json.MAPPER.readTree(body)).filter(n -> !n.isMissingNode());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static String text(JsonNode n) {
        return n != null && n.isTextual() ? n.textValue() : null;
    }

    private static String clean(String message) {
        String m = KEY_LIKE.matcher(message).replaceAll("[redacted]");
        return m.length() > MAX_MESSAGE ? m.substring(0, MAX_MESSAGE) + "..." : m;
    }

    /** Our slug for the status; upstream slugs (OpenAI says "tokens" for a rate limit) mean nothing to callers. */
    private static String type(int status) {
        return switch (status) {
            case 400, 404, 409, 413, 422 -> "invalid_request_error";
            case 401 -> "authentication_error";
            case 403 -> "permission_error";
            case 429 -> "rate_limit_error";
            default -> status >= 500 ? "api_error" : "invalid_request_error";
        };
    }
}
