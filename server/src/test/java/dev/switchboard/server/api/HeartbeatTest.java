package dev.switchboard.server.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.engine.pipeline.RequestTrace;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.Usage;
import dev.switchboard.server.http.Exchange;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A quiet stream gets its format's heartbeat: Anthropic's {@code event: ping} on the messages endpoints. */
class HeartbeatTest {

    /** Just enough of an exchange to capture a streamed body. */
    private static final class CapturingExchange implements Exchange {
        final ByteArrayOutputStream body = new ByteArrayOutputStream();

        String text() {
            synchronized (body) {
                return body.toString(StandardCharsets.UTF_8);
            }
        }

        @Override
        public OutputStream openStream(int status, String contentType) {
            return new OutputStream() {
                @Override
                public void write(int b) {
                    synchronized (body) {
                        body.write(b);
                    }
                }
            };
        }

        @Override public String method() { return "POST"; }
        @Override public String path() { return "/v1/messages"; }
        @Override public Optional<String> header(String name) { return Optional.empty(); }
        @Override public Optional<String> query(String name) { return Optional.empty(); }
        @Override public String pathParam(String name) { return ""; }
        @Override public byte[] body() { return new byte[0]; }
        @Override public String requestId() { return "req_test"; }
        @Override public void header(String name, String value) { }
        @Override public void respond(int status, String contentType, byte[] body) { }
        @Override public boolean committed() { return true; }
        @Override public void beforeCommit(Runnable hook) { throw new UnsupportedOperationException("no hooks in this test"); }
        @Override public Optional<RequestTrace> trace() { return Optional.empty(); }
        @Override public void trace(RequestTrace trace) { }
    }

    @Test
    void theMessagesHeartbeatIsANamedPingEventWhosePayloadTypeIsPing() {
        assertThat(MessagesApi.HEARTBEAT).isEqualTo("event: ping\ndata: {\"type\":\"ping\"}\n\n");
    }

    @Test
    void aQuietMessagesStreamGetsPingEventsBetweenItsFrames() throws Exception {
        CapturingExchange ex = new CapturingExchange();
        try (Heartbeats heartbeats = new Heartbeats(Duration.ofMillis(100));
             SseSink sink = new SseSink(ex, e -> "event: message_start\n\n".getBytes(StandardCharsets.UTF_8),
                     Optional.of(heartbeats), MessagesApi.HEARTBEAT.getBytes(StandardCharsets.UTF_8))) {
            sink.send(new StreamEvent.MessageStart("msg_1", "m", Usage.EMPTY));
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (!ex.text().contains("ping") && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
        }

        assertThat(ex.text()).startsWith("event: message_start\n\n")
                .contains("\n\nevent: ping\ndata: {\"type\":\"ping\"}\n\n")
                .doesNotContain("\n\n: ping"); // never the comment heartbeat of the other formats
    }
}
