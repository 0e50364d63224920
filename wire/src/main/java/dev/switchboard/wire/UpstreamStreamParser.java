package dev.switchboard.wire;

import dev.switchboard.model.StreamEvent;
import java.util.List;
import java.util.Optional;

/**
 * What every provider format's upstream stream parser does: turn the upstream's server-sent events into
 * canonical stream events. One instance per stream; not thread-safe.
 */
public interface UpstreamStreamParser {
    /** One server-sent event: its {@code event} name if it had one, and its data. */
    List<StreamEvent> onEvent(Optional<String> event, String data);

    /** The upstream closed the stream. */
    List<StreamEvent> onEnd();
}
