package dev.switchboard.engine.pipeline;

import dev.switchboard.model.StreamEvent;

/**
 * Where the pipeline delivers a committed stream. The first {@link #send} is the moment the client's
 * response starts (headers included); nothing is sent before the first upstream event arrived.
 */
public interface StreamSink {

    /** Delivers one event now; throws when the client is gone, which cancels the upstream request. */
    void send(StreamEvent event) throws ClientGoneException;

    /**
     * Delivers one event; {@code moreReady} says further events are already at hand, so the sink may hold
     * this one briefly and send them together (one network write for a burst instead of one per event).
     * A sink must not hold an event once {@code moreReady} is false, except the stream's last one (its end or an
     * in-band error), which it may hold until it is closed: the caller closes the sink as soon as the request is
     * settled.
     */
    default void send(StreamEvent event, boolean moreReady) throws ClientGoneException {
        send(event);
    }

    /**
     * What to run when the sink learns, between events, that the client has gone (e.g. a heartbeat write
     * failed while the upstream was silent): the pipeline passes the upstream cancellation. May be called
     * from another thread. The default sink notices a departure only on its next send.
     */
    default void onClientGone(Runnable cancel) {
    }

    /**
     * Why the gateway itself ended this stream (it is shutting down and the grace period is over), when it did:
     * the relay reports that, rather than an upstream failure, in the in-band error that closes the stream.
     */
    default java.util.Optional<String> endedByGateway() {
        return java.util.Optional.empty();
    }
}
