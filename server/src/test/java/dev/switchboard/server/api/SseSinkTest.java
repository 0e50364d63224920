package dev.switchboard.server.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.Usage;
import dev.switchboard.wire.gemini.GeminiClientStreamWriter;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The JSON-array framing of a content-parts stream: its content type, a heartbeat that keeps the JSON valid, and the closing trailer. */
class SseSinkTest {

    /** An exchange that records the streamed body. */
    private static class RecordingExchange extends StreamedExchangeSupport {
        final ByteArrayOutputStream body = new ByteArrayOutputStream();
        String contentType;

        RecordingExchange() {
            super("/v1beta/models/m:streamGenerateContent");
        }

        @Override
        public OutputStream openStream(int status, String contentType) {
            this.contentType = contentType;
            opened();
            return body;
        }
    }

    @Test
    void aJsonArrayStreamStaysValidJsonWithHeartbeatsAndIsClosedByTheTrailerWhenTheWriterWasCutShort() throws Exception {
        RecordingExchange ex = new RecordingExchange();
        GeminiClientStreamWriter writer = new GeminiClientStreamWriter(GeminiClientStreamWriter.Mode.JSON_ARRAY, "m");
        try (Heartbeats heartbeats = new Heartbeats(Duration.ofHours(1));
             SseSink sink = new SseSink(ex, writer::writeBytes, Optional.of(heartbeats), GenerateContentApi.JSON_HEARTBEAT,
                     writer.contentType() + "; charset=utf-8", () -> writer.finish().getBytes(StandardCharsets.UTF_8))) {
            sink.send(new StreamEvent.MessageStart("r1", "m", Usage.EMPTY));
            sink.send(new StreamEvent.BlockStart(0, ContentBlock.Text.of("")));
            sink.heartbeatIfQuiet(System.nanoTime() + 1, 0, Long.MAX_VALUE / 4);
            sink.send(new StreamEvent.BlockDelta(0, new StreamEvent.Delta.TextDelta("Hello")));
            sink.heartbeatIfQuiet(System.nanoTime() + 1, 0, Long.MAX_VALUE / 4);
            sink.send(new StreamEvent.BlockDelta(0, new StreamEvent.Delta.TextDelta(" there")));
            // no MessageStop: the stream stops short, as after an unexpected failure
        }

        String text = ex.body.toString(StandardCharsets.UTF_8);
        assertThat(ex.contentType).isEqualTo("application/json; charset=utf-8");
        assertThat(text).as("the heartbeat went out between elements").contains("\n,");
        var array = new ObjectMapper().readTree(text);
        assertThat(array.isArray()).isTrue();
        assertThat(array).hasSize(2);
        assertThat(array.get(1).at("/candidates/0/content/parts/0/text").asText()).isEqualTo(" there");
    }

    /**
     * Found by the fault soak on PostgreSQL: settlement runs after the stream's last event and before the sink is
     * closed, and a heartbeat due meanwhile went out after the end (the messages format's {@code ping} after
     * {@code message_stop}). Nothing may follow a stream's end or the error that ended it.
     */
    @Test
    void noHeartbeatFollowsTheEndOfAStreamOrTheErrorThatEndedIt() throws Exception {
        for (StreamEvent last : java.util.List.of(new StreamEvent.MessageStop(),
                new StreamEvent.StreamError(dev.switchboard.model.GatewayError.upstreamUnavailable("cut")))) {
            RecordingExchange ex = new RecordingExchange();
            try (Heartbeats heartbeats = new Heartbeats(Duration.ofHours(1));
                 SseSink sink = new SseSink(ex, e -> (e.getClass().getSimpleName() + "\n").getBytes(StandardCharsets.UTF_8),
                         Optional.of(heartbeats), "ping\n".getBytes(StandardCharsets.UTF_8))) {
                sink.send(new StreamEvent.MessageStart("r1", "m", Usage.EMPTY));
                sink.heartbeatIfQuiet(System.nanoTime() + 1, 0, Long.MAX_VALUE / 4);
                sink.send(last);
                // quiet for longer than any interval, and a probe due: still nothing after the end
                sink.heartbeatIfQuiet(System.nanoTime() + Duration.ofHours(2).toNanos(), 0, 0);
                sink.heartbeatIfQuiet(System.nanoTime() + Duration.ofHours(3).toNanos(), 0, 0);
            }

            String text = ex.body.toString(StandardCharsets.UTF_8);
            assertThat(text).as("a heartbeat while the stream was open").isEqualTo("MessageStart\nping\n"
                    + last.getClass().getSimpleName() + "\n");
        }
    }

    @Test
    void aFinishedWriterAddsNothingOnClose() throws Exception {
        RecordingExchange ex = new RecordingExchange();
        GeminiClientStreamWriter writer = new GeminiClientStreamWriter(GeminiClientStreamWriter.Mode.JSON_ARRAY, "m");
        try (SseSink sink = new SseSink(ex, writer::writeBytes, Optional.empty(), GenerateContentApi.JSON_HEARTBEAT,
                writer.contentType(), () -> writer.finish().getBytes(StandardCharsets.UTF_8))) {
            sink.send(new StreamEvent.MessageStart("r1", "m", Usage.EMPTY));
            sink.send(new StreamEvent.MessageStop());
        }

        assertThat(new ObjectMapper().readTree(ex.body.toString(StandardCharsets.UTF_8))).hasSize(1);
    }

    @Test
    void nothingIsWrittenWhenTheStreamNeverStarted() {
        RecordingExchange ex = new RecordingExchange();
        GeminiClientStreamWriter writer = new GeminiClientStreamWriter(GeminiClientStreamWriter.Mode.JSON_ARRAY, "m");
        new SseSink(ex, writer::writeBytes, Optional.empty(), GenerateContentApi.JSON_HEARTBEAT, writer.contentType(),
                () -> writer.finish().getBytes(StandardCharsets.UTF_8)).close();

        assertThat(ex.committed()).isFalse();
        assertThat(ex.body.size()).isZero();
    }

    /** An output stream that records each write, flush and close, in order. */
    private static final class CountingStream extends OutputStream {
        final java.util.List<String> ops = new java.util.ArrayList<>();

        @Override
        public void write(int b) {
            ops.add("write:" + (char) b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            ops.add("write:" + new String(b, off, len, StandardCharsets.UTF_8));
        }

        @Override
        public void flush() {
            ops.add("flush");
        }

        @Override
        public void close() {
            ops.add("close");
        }
    }

    /** An exchange whose response body is {@code out}. */
    private static RecordingExchange writingTo(OutputStream out) {
        return new RecordingExchange() {
            @Override
            public OutputStream openStream(int status, String contentType) {
                this.contentType = contentType;
                opened();
                return out;
            }
        };
    }

    @Test
    void noHeartbeatFollowsTheStreamsLastEventWhileTheRequestSettles() throws Exception {
        RecordingExchange ex = new RecordingExchange();
        try (Heartbeats heartbeats = new Heartbeats(Duration.ofHours(1));
             SseSink sink = new SseSink(ex, e -> (e.getClass().getSimpleName() + ";").getBytes(StandardCharsets.UTF_8),
                     Optional.of(heartbeats), "ping;".getBytes(StandardCharsets.UTF_8))) {
            sink.send(new StreamEvent.MessageStart("r1", "m", Usage.EMPTY));
            // quiet: a heartbeat, and its probe due at once
            sink.heartbeatIfQuiet(System.nanoTime() + 1, 0, 1);
            sink.send(new StreamEvent.MessageStop());
            // the probe, and any later quiet tick, come after the end: nothing may be written
            sink.heartbeatIfQuiet(System.nanoTime() + 10, 0, 1);
            sink.heartbeatIfQuiet(System.nanoTime() + 20, 0, 1);
        }

        assertThat(ex.body.toString(StandardCharsets.UTF_8)).isEqualTo("MessageStart;ping;MessageStop;");
    }

    @Test
    void eventsAtHandGoOutInOneWriteAndTheLastOneIsNeverHeld() {
        CountingStream out = new CountingStream();
        RecordingExchange ex = writingTo(out);
        try (SseSink sink = new SseSink(ex, e -> (e.getClass().getSimpleName() + ";").getBytes(StandardCharsets.UTF_8))) {
            // the first event, nothing behind it: written and flushed at once
            sink.send(new StreamEvent.MessageStart("r1", "m", Usage.EMPTY), false);
            assertThat(out.ops).containsExactly("write:MessageStart;", "flush");
            // three events at hand: one write, one flush, with the last of them
            sink.send(new StreamEvent.BlockStart(0, ContentBlock.Text.of("")), true);
            sink.send(new StreamEvent.BlockDelta(0, new StreamEvent.Delta.TextDelta("a")), true);
            assertThat(out.ops).hasSize(2);
            sink.send(new StreamEvent.BlockDelta(0, new StreamEvent.Delta.TextDelta("b")), false);
            assertThat(out.ops).containsExactly("write:MessageStart;", "flush",
                    "write:BlockStart;BlockDelta;BlockDelta;", "flush");
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /**
     * The stream's last event goes out with the end of the body, when the sink is closed after settlement: never
     * flushed on its own (a flush there costs Helidon a chunk write, and the end another), and never lost.
     */
    @Test
    void theLastEventGoesOutWithTheEndOfTheBodyInOneWrite() throws Exception {
        for (StreamEvent last : java.util.List.of(new StreamEvent.MessageStop(),
                new StreamEvent.StreamError(dev.switchboard.model.GatewayError.upstreamUnavailable("cut")))) {
            CountingStream out = new CountingStream();
            SseSink sink = new SseSink(writingTo(out),
                    e -> (e.getClass().getSimpleName() + ";").getBytes(StandardCharsets.UTF_8));
            sink.send(new StreamEvent.MessageStart("r1", "m", Usage.EMPTY), true);
            sink.send(new StreamEvent.BlockDelta(0, new StreamEvent.Delta.TextDelta("a")), true);
            sink.send(last, false);
            assertThat(out.ops).as("nothing written before the sink is closed").isEmpty();

            sink.close();

            String name = last.getClass().getSimpleName();
            assertThat(out.ops).containsExactly("write:MessageStart;BlockDelta;" + name + ";", "close");
        }
    }
}
