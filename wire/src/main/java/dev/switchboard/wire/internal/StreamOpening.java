package dev.switchboard.wire.internal;

import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.Usage;
import java.util.Optional;

/**
 * When a client stream writer opens its stream, the same in every format. The canonical order puts one
 * {@code MessageStart} before everything else; a writer opens with it. When another event comes first (a
 * bug upstream of the writer), the writer opens with an empty {@code MessageStart} all the same: the client
 * gets a well-formed stream, where an exception would cut a response already under way. A later
 * {@code MessageStart} is ignored. One instance per stream.
 */
public final class StreamOpening {
    private static final StreamEvent.MessageStart EMPTY = new StreamEvent.MessageStart("", "", Usage.EMPTY);

    private boolean open;

    /** The start to open the stream with before {@code event}; empty when the stream is already open. */
    public Optional<StreamEvent.MessageStart> before(StreamEvent event) {
        if (open) {
            return Optional.empty();
        }
        open = true;
        return Optional.of(event instanceof StreamEvent.MessageStart s ? s : EMPTY);
    }
}
