package dev.switchboard.server.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.engine.pipeline.RequestTrace;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.Usage;
import dev.switchboard.server.http.Exchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A client that leaves while the upstream is silent is noticed within one heartbeat interval: a heartbeat
 * after half the interval of quiet, then a probe shortly after it, whose failure cancels the upstream.
 */
class ClientGoneTest {
    private static final long INTERVAL = Duration.ofSeconds(10).toNanos();
    private static final long QUIET = INTERVAL / 2;
    private static final long PROBE_DELAY = Duration.ofSeconds(1).toNanos();

    /**
     * A connection as TCP behaves once the peer closed it: the first write is still accepted (the kernel
     * queues it and the peer answers with a reset), every later one fails.
     */
    private static final class ClosingConnection implements Exchange {
        final List<String> written = new ArrayList<>();
        volatile boolean peerClosed;
        int writesAfterClose;

        @Override
        public OutputStream openStream(int status, String contentType) {
            return new OutputStream() {
                @Override
                public void write(int b) throws IOException {
                    write(new byte[] {(byte) b}, 0, 1);
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    if (peerClosed && writesAfterClose++ > 0) {
                        throw new IOException("Broken pipe");
                    }
                    written.add(new String(b, off, len, StandardCharsets.UTF_8));
                }
            };
        }

        @Override public String method() { return "POST"; }
        @Override public String path() { return "/v1/chat/completions"; }
        @Override public Optional<String> header(String name) { return Optional.empty(); }
        @Override public Optional<String> query(String name) { return Optional.empty(); }
        @Override public String pathParam(String name) { return ""; }
        @Override public byte[] body() { return new byte[0]; }
        @Override public String requestId() { return "req_test"; }
        @Override public void header(String name, String value) { }
        @Override public void respond(int status, String contentType, byte[] body) { throw new AssertionError("streamed"); }
        @Override public boolean committed() { return true; }
        @Override public void beforeCommit(Runnable hook) { throw new UnsupportedOperationException("no hooks in this test"); }
        @Override public Optional<RequestTrace> trace() { return Optional.empty(); }
        @Override public void trace(RequestTrace trace) { }
    }

    private static SseSink opened(ClosingConnection connection, Runnable cancel) throws Exception {
        SseSink sink = new SseSink(connection, e -> "data: {}\n\n".getBytes(StandardCharsets.UTF_8));
        sink.onClientGone(cancel);
        sink.send(new StreamEvent.MessageStart("r1", "m", Usage.EMPTY));
        return sink;
    }

    @Test
    void theProbeAfterTheFirstHeartbeatFindsTheClientGoneWithinOneInterval() throws Exception {
        ClosingConnection connection = new ClosingConnection();
        AtomicInteger cancelled = new AtomicInteger();
        long start = System.nanoTime();
        SseSink sink = opened(connection, cancelled::incrementAndGet);
        long lastEvent = System.nanoTime();
        connection.peerClosed = true; // the client leaves right after the last event, the upstream stays silent

        sink.heartbeatIfQuiet(start + QUIET - 1, QUIET, PROBE_DELAY);
        assertThat(connection.written).as("not quiet long enough yet").hasSize(1);
        sink.heartbeatIfQuiet(lastEvent + QUIET, QUIET, PROBE_DELAY);
        assertThat(connection.written).as("the heartbeat is still accepted by the closed connection").hasSize(2);
        assertThat(cancelled).hasValue(0);

        // the ticks after it: the probe is due PROBE_DELAY after the heartbeat, well before a second quiet period
        long probeAt = lastEvent + QUIET + PROBE_DELAY + 1;
        sink.heartbeatIfQuiet(probeAt, QUIET, PROBE_DELAY);

        assertThat(cancelled).as("the upstream is cancelled by the probe").hasValue(1);
        assertThat(probeAt - start).as("noticed within one heartbeat interval").isLessThanOrEqualTo(INTERVAL);
        sink.heartbeatIfQuiet(probeAt + INTERVAL, QUIET, PROBE_DELAY);
        assertThat(cancelled).as("cancelled once").hasValue(1);
    }

    @Test
    void aClientThatStaysGetsAHeartbeatEveryHalfIntervalAndNoCancel() throws Exception {
        ClosingConnection connection = new ClosingConnection();
        AtomicInteger cancelled = new AtomicInteger();
        SseSink sink = opened(connection, cancelled::incrementAndGet);
        long t = System.nanoTime();
        for (int i = 0; i < 6; i++) {
            t += QUIET;
            sink.heartbeatIfQuiet(t, QUIET, PROBE_DELAY);
            t += PROBE_DELAY;
            sink.heartbeatIfQuiet(t, QUIET, PROBE_DELAY);
        }

        assertThat(cancelled).hasValue(0);
        assertThat(connection.written).as("the first event, then a heartbeat and its probe per quiet period")
                .hasSizeGreaterThanOrEqualTo(1 + 6);
    }

    @Test
    void heartbeatsRunningOnTheirOwnNoticeASilentDeparture() throws Exception {
        ClosingConnection connection = new ClosingConnection();
        CountDownLatch cancelled = new CountDownLatch(1);
        try (Heartbeats heartbeats = new Heartbeats(Duration.ofMillis(200));
             SseSink sink = new SseSink(connection, e -> "data: {}\n\n".getBytes(StandardCharsets.UTF_8),
                     Optional.of(heartbeats), SseSink.COMMENT_HEARTBEAT)) {
            sink.onClientGone(cancelled::countDown);
            sink.send(new StreamEvent.MessageStart("r1", "m", Usage.EMPTY));
            connection.peerClosed = true;

            assertThat(cancelled.await(30, TimeUnit.SECONDS)).as("the departure is noticed without any event").isTrue();
        }
    }
}
