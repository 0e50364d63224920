package dev.switchboard.wire.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * One server-sent event of an upstream whose events are JSON objects naming their type (Anthropic's messages
 * stream, OpenAI's Responses stream): the type is the object's {@code type}, else the SSE event name.
 *
 * <p>Not part of the wire API: formats share it, callers outside {@code wire} must not.
 */
public record UpstreamEvent(String type, ObjectNode payload) {
    public UpstreamEvent {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(payload, "payload");
    }

    /** The event, or empty when its data is not a JSON object (the parser fails the stream then). */
    public static Optional<UpstreamEvent> read(Optional<String> eventName, String data) {
        return UpstreamErrors.json(data.getBytes(StandardCharsets.UTF_8))
                .filter(ObjectNode.class::isInstance).map(ObjectNode.class::cast)
                .map(o -> new UpstreamEvent(o.path("type").isTextual() ? o.path("type").textValue() : eventName.orElse(""), o));
    }
}
