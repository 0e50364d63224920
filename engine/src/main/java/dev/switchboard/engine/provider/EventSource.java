package dev.switchboard.engine.provider;

import dev.switchboard.engine.upstream.UpstreamFailure;
import dev.switchboard.model.StreamEvent;
import java.util.Optional;

/**
 * A live stream of canonical events from one upstream attempt. Pull-based: the caller's (virtual) thread
 * blocks in {@link #next()}, so back-pressure is natural and nothing is buffered beyond one read.
 * {@link #close()} cancels the upstream request if it is still running. Not thread-safe.
 */
public interface EventSource extends AutoCloseable {

    /**
     * The next event, or empty when the upstream ended the stream.
     *
     * @throws UpstreamFailure when the upstream failed (reset, timeout, in-band error before any event)
     */
    Optional<StreamEvent> next();

    /** Whether {@link #next()} can answer without waiting for the upstream (events already received). */
    default boolean hasBuffered() {
        return false;
    }

    @Override
    void close();
}
