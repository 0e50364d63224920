package dev.switchboard.server.api;

import dev.switchboard.engine.pipeline.ClientGoneException;
import dev.switchboard.engine.pipeline.StreamSink;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.server.http.Exchange;
import java.io.IOException;
import java.io.OutputStream;
import java.util.function.Function;

/**
 * Delivers a committed stream to the client as server-sent events in the client's format. The response
 * (status 200 and headers) starts with the first event, never earlier, so that failover before it stays
 * invisible. Each event is flushed at once; a failed write means the client left.
 */
public final class SseSink implements StreamSink, AutoCloseable {
    private final Exchange exchange;
    private final Function<StreamEvent, byte[]> writer;
    private OutputStream out;

    /** {@code writer} renders one canonical event as the bytes of zero or more SSE frames. */
    public SseSink(Exchange exchange, Function<StreamEvent, byte[]> writer) {
        this.exchange = exchange;
        this.writer = writer;
    }

    @Override
    public void send(StreamEvent event) throws ClientGoneException {
        byte[] bytes = writer.apply(event);
        try {
            if (out == null) {
                out = exchange.openStream(200, "text/event-stream; charset=utf-8");
            }
            if (bytes.length > 0) {
                out.write(bytes);
                out.flush();
            }
        } catch (IOException | RuntimeException e) {
            throw new ClientGoneException(e);
        }
    }

    /** Ends the response body (when a stream was opened). */
    @Override
    public void close() {
        if (out != null) {
            try {
                out.close();
            } catch (IOException ignored) {
                // the client is gone; nothing left to tell it
            }
        }
    }
}
