package dev.switchboard.engine.provider;

import dev.switchboard.engine.upstream.UpstreamFailure;
import dev.switchboard.model.StreamEvent;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
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

    /** A source over events already in hand (a whole answer told as a stream): never waits, ends after the last. */
    static EventSource of(List<StreamEvent> events) {
        Deque<StreamEvent> left = new ArrayDeque<>(events);
        return new EventSource() {
            @Override
            public Optional<StreamEvent> next() {
                return Optional.ofNullable(left.poll());
            }

            @Override
            public boolean hasBuffered() {
                return !left.isEmpty();
            }

            @Override
            public void close() {
                left.clear();
            }
        };
    }
}
