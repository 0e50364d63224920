package dev.switchboard.server.extend;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.engine.extend.Limits;
import dev.switchboard.model.GatewayError;
import dev.switchboard.server.http.Exchange;
import dev.switchboard.wire.Json;
import java.util.Optional;

/** Request bodies of catalog writes: JSON objects of at most {@value Limits#WRITE_BODY_BYTES} bytes (413 beyond). */
final class Bodies {
    private Bodies() {
    }

    /** The body as JSON; an empty body is {@code {}} (likes, forks and installs may send none). */
    static JsonNode json(Exchange ex) {
        return json(ex, Limits.WRITE_BODY_BYTES);
    }

    static JsonNode json(Exchange ex, int maxBytes) {
        byte[] raw = ex.body();
        if (raw.length > maxBytes) {
            throw new GatewayError(413, "request_too_large", "The request body has " + raw.length + " bytes; at most " + maxBytes
                    + " are accepted here.", Optional.empty(), false).toException();
        }
        return raw.length == 0 || new String(raw, java.nio.charset.StandardCharsets.UTF_8).isBlank() ? Json.object()
                : Json.parse(raw);
    }
}
