package dev.switchboard.wire.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.GatewayError;
import dev.switchboard.wire.Json;

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
}
