package dev.switchboard.engine.route;

import dev.switchboard.engine.provider.EventSource;
import dev.switchboard.model.StreamEvent;
import java.util.Objects;

/** A stream the failover loop committed to: its first event has arrived; the rest comes from {@code source}. */
public record OpenStream(StreamEvent first, EventSource source) {
    public OpenStream {
        Objects.requireNonNull(first, "first");
        Objects.requireNonNull(source, "source");
    }
}
