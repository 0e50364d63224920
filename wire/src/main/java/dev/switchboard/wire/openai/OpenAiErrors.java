package dev.switchboard.wire.openai;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.GatewayError;
import dev.switchboard.wire.internal.ErrorEnvelope;

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

    /** The error an upstream answered with ({@link ErrorEnvelope#fromUpstream}). */
    static GatewayError fromUpstream(int status, byte[] body) {
        return ErrorEnvelope.fromUpstream(status, body);
    }
}
