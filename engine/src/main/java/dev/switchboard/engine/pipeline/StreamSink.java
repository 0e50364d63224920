package dev.switchboard.engine.pipeline;

import dev.switchboard.model.StreamEvent;

/**
 * Where the pipeline delivers a committed stream. The first {@link #send} is the moment the client's
 * response starts (headers included); nothing is sent before the first upstream event arrived.
 */
public interface StreamSink {

    /** Delivers one event; throws when the client is gone, which cancels the upstream request. */
    void send(StreamEvent event) throws ClientGoneException;
}
