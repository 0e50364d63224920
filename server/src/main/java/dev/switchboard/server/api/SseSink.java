package dev.switchboard.server.api;

import dev.switchboard.engine.pipeline.ClientGoneException;
import dev.switchboard.engine.pipeline.StreamSink;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.server.http.Exchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Delivers a committed stream to the client as server-sent events in the client's format (or, for
 * Google's JSON-array stream, another incremental framing with its own content type). The response
 * (status 200 and headers) starts with the first event, never earlier, so that failover before it stays
 * invisible. Events are written in bursts: the frames of events that are already at hand (the caller says
 * {@code moreReady}) are gathered and go out in one write and one flush with the last of them, so a burst
 * of upstream events costs one socket write instead of one per event (socket writes were 45% of a stream's
 * CPU); an event with nothing behind it is written and flushed at once, so no frame ever waits for another
 * one and the first byte is never delayed. The stream's last event (its end, or an in-band error) is the one
 * exception: it is written with the end of the body when the sink is closed, which is after the request was
 * settled, so the client sees the stream end once its charge is recorded (as a whole response is sent after
 * settlement), and the tail costs one socket write instead of two. A failed write means the client left.
 * While the stream is open, {@link Heartbeats} may write a heartbeat between events: writes are serialised on
 * this object.
 */
public final class SseSink implements StreamSink, AutoCloseable {
    /** An SSE comment: ignored by every SSE client, so it suits any format carried over SSE. */
    public static final byte[] COMMENT_HEARTBEAT = ": ping\n\n".getBytes(StandardCharsets.UTF_8);

    private final Exchange exchange;
    private final Function<StreamEvent, byte[]> writer;
    private final Optional<Heartbeats> heartbeats;
    private final byte[] heartbeat;
    private final String contentType;
    private final Supplier<byte[]> trailer;
    private OutputStream out;
    /** Frames gathered for the next write; reused for the whole stream. */
    private byte[] pending = new byte[2048];
    private int pendingLength;
    private volatile long lastWriteNanos = System.nanoTime();
    /** When the probe after the last heartbeat is due; 0 when none is pending. */
    private long probeDueNanos;
    private volatile Runnable onGone = () -> { };
    private volatile boolean gone;
    private volatile Optional<String> endedByGateway = Optional.empty();
    /**
     * The stream's last event (its end, or an in-band error) was handed over: no heartbeat may follow it. Between
     * that event and {@link #close()} the request settles, which can take a while under load, and a heartbeat
     * there would be an event after the format's end (Anthropic's {@code ping} after {@code message_stop}).
     */
    private volatile boolean ended;

    /** {@code writer} renders one canonical event as the bytes of zero or more SSE frames. */
    public SseSink(Exchange exchange, Function<StreamEvent, byte[]> writer) {
        this(exchange, writer, Optional.empty(), COMMENT_HEARTBEAT);
    }

    /** A sink that takes part in {@code heartbeats}, writing {@code heartbeat} bytes when quiet. */
    public SseSink(Exchange exchange, Function<StreamEvent, byte[]> writer, Optional<Heartbeats> heartbeats,
                   byte[] heartbeat) {
        this(exchange, writer, heartbeats, heartbeat, "text/event-stream; charset=utf-8", () -> new byte[0]);
    }

    /**
     * A sink for a stream framed otherwise than as SSE (Google's incrementally written JSON array):
     * {@code contentType} is the response's, {@code heartbeat} must be valid anywhere between two writes
     * of {@code writer} (whitespace, for JSON), and {@code trailer} gives the bytes that close the body when
     * the writer did not (e.g. a JSON array's {@code ]}); it is called once, on {@link #close()}, and only
     * when the response was started.
     */
    public SseSink(Exchange exchange, Function<StreamEvent, byte[]> writer, Optional<Heartbeats> heartbeats,
                   byte[] heartbeat, String contentType, Supplier<byte[]> trailer) {
        this.exchange = exchange;
        this.writer = writer;
        this.heartbeats = heartbeats;
        this.heartbeat = heartbeat.clone();
        this.contentType = contentType;
        this.trailer = trailer;
    }

    @Override
    public void send(StreamEvent event) throws ClientGoneException {
        send(event, false);
    }

    @Override
    public void send(StreamEvent event, boolean moreReady) throws ClientGoneException {
        byte[] bytes = writer.apply(event);
        try {
            synchronized (this) {
                if (gone) {
                    throw new IOException("client connection closed");
                }
                if (out == null) {
                    out = exchange.openStream(200, contentType);
                    heartbeats.ifPresent(h -> h.register(this));
                }
                gather(bytes);
                boolean last = event instanceof StreamEvent.MessageStop || event instanceof StreamEvent.StreamError;
                if (pendingLength > 0 && !moreReady && !last) {
                    writePending();
                    out.flush();
                    lastWriteNanos = System.nanoTime();
                }
                if (last) {
                    // The stream has ended for the client: no heartbeat may follow its end (the messages format's
                    // ping would be an event after message_stop), although the request is still being settled.
                    // Its last frames stay pending and go out with the end of the body on close(), after the
                    // settlement: one write for the tail instead of two (and for a stream that arrived whole, one
                    // write for head, body and end, instead of three).
                    ended = true;
                    heartbeats.ifPresent(h -> h.unregister(this));
                }
            }
        } catch (IOException | RuntimeException e) {
            gone = true;
            throw new ClientGoneException(e);
        }
    }

    private void gather(byte[] bytes) {
        if (pendingLength + bytes.length > pending.length) {
            pending = java.util.Arrays.copyOf(pending, Math.max(pending.length * 2, pendingLength + bytes.length));
        }
        System.arraycopy(bytes, 0, pending, pendingLength, bytes.length);
        pendingLength += bytes.length;
    }

    private void writePending() throws IOException {
        if (pendingLength > 0) {
            out.write(pending, 0, pendingLength);
            pendingLength = 0;
        }
    }

    @Override
    public void onClientGone(Runnable cancel) {
        onGone = cancel;
    }

    @Override
    public Optional<String> endedByGateway() {
        return endedByGateway;
    }

    /**
     * Ends the stream from the gateway's side (shutdown, grace over): cancels the upstream request, so the relay
     * stops waiting for it and closes the stream with an in-band error saying {@code why}; the request is then
     * settled like any stream cut short.
     */
    void endByGateway(String why) {
        endedByGateway = Optional.of(why);
        onGone.run();
    }

    /**
     * Called by {@link Heartbeats}: writes a heartbeat when nothing was written for {@code quietNanos}, and
     * another one {@code probeDelayNanos} after it (the write that fails when the client has left). A failed
     * write marks the client gone and cancels the upstream request.
     */
    void heartbeatIfQuiet(long now, long quietNanos, long probeDelayNanos) {
        if (gone || ended) {
            return;
        }
        try {
            synchronized (this) {
                if (out == null || gone || ended) {
                    return;
                }
                boolean probe = probeDueNanos != 0 && now - probeDueNanos >= 0;
                if (!probe && now - lastWriteNanos < quietNanos) {
                    return;
                }
                gather(heartbeat);
                writePending();
                out.flush();
                lastWriteNanos = System.nanoTime();
                probeDueNanos = probe ? 0 : lastWriteNanos + Math.max(1, probeDelayNanos);
            }
        } catch (IOException | RuntimeException e) {
            gone = true;
            onGone.run();
        }
    }

    /** Ends the response body (when a stream was opened). */
    @Override
    public void close() {
        heartbeats.ifPresent(h -> h.unregister(this));
        if (out != null) {
            try {
                synchronized (this) {
                    if (!gone) {
                        gather(trailer.get());
                        writePending();
                    }
                    out.close();
                }
            } catch (IOException | RuntimeException ignored) {
                // the client is gone; nothing left to tell it
            }
        }
    }
}
