package dev.switchboard.wire.sse;

import java.util.Objects;
import java.util.Optional;

/**
 * One dispatched server-sent event: its {@code event:} name when given, its data (multi-line data joined
 * with {@code \n}, without the final newline), and the {@code id:} given on this event, if any.
 */
public record SseEvent(Optional<String> event, String data, Optional<String> id) {
    public SseEvent {
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(id, "id");
    }

    /** An unnamed event with only data, as chat-completions streams send. */
    public static SseEvent data(String data) {
        return new SseEvent(Optional.empty(), data, Optional.empty());
    }

    /** True for the OpenAI-style end marker {@code data: [DONE]}. */
    public boolean isDone() {
        return "[DONE]".equals(data);
    }
}
