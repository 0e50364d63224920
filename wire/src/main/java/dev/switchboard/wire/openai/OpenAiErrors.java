package dev.switchboard.wire.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.GatewayError;
import dev.switchboard.wire.internal.ErrorEnvelope;
import dev.switchboard.wire.internal.UpstreamErrors;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The error envelope {@code {"error": {message, type, param, code}}} both ways: rendered for our
 * callers (spec 7, {@code code} is the HTTP status as a string) and parsed from OpenAI-compatible
 * upstreams, which use the same envelope with their own {@code code} slugs, or sometimes a bare string,
 * a top-level message, or no JSON at all.
 */
final class OpenAiErrors {
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
     * The error an upstream answered with. The upstream's message is kept (as {@link UpstreamErrors}
     * cleans it) so the engine can report or inspect it (e.g. to detect a prefill rejection), and so is
     * its {@code param}; type and retryability follow the status, whatever slug the upstream used (OpenAI
     * says "tokens" for a rate limit). A body that is not the envelope is the message itself.
     */
    static GatewayError fromUpstream(int status, byte[] body) {
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
