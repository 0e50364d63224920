package dev.switchboard.engine.route;

import dev.switchboard.engine.provider.EventSource;
import dev.switchboard.model.StreamEvent;
import java.util.List;
import java.util.Objects;

/**
 * A stream the failover loop committed to. {@code held} are the events read before the commit, in order:
 * the content-free ones ({@code MessageStart}, empty block starts, signatures) and the first event that
 * carries content or ends the answer; they go to the client first. The rest comes from {@code source}.
 */
public record OpenStream(List<StreamEvent> held, EventSource source) {
    public OpenStream {
        held = List.copyOf(held);
        if (held.isEmpty()) {
            throw new IllegalArgumentException("a committed stream has at least one event");
        }
        Objects.requireNonNull(source, "source");
    }
}
