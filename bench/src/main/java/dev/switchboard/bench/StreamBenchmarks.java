package dev.switchboard.bench;

import dev.switchboard.model.StreamEvent;
import dev.switchboard.wire.openai.OpenAiClientStreamWriter;
import dev.switchboard.wire.openai.OpenAiUpstreamStreamParser;
import dev.switchboard.wire.sse.SseEvent;
import dev.switchboard.wire.sse.SseParser;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Translation cost per streamed chunk: SSE bytes of an upstream chunk in, SSE text of the client chunk
 * out (SSE parsing, upstream stream parser, client stream writer). One invocation translates a whole
 * stream of {@value #CHUNKS} content chunks with fresh per-stream state, so the figure is per chunk
 * including each stream's share of set-up and end.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class StreamBenchmarks {
    static final int CHUNKS = 200;
    private byte[][] chunks;

    @Setup
    public void setUp() {
        chunks = new byte[CHUNKS][];
        for (int i = 0; i < CHUNKS; i++) {
            chunks[i] = Payloads.contentChunk(i);
        }
    }

    @Benchmark
    @OperationsPerInvocation(CHUNKS)
    public void perChunkUpstreamToClient(Blackhole bh) {
        SseParser sse = new SseParser();
        OpenAiUpstreamStreamParser parser = new OpenAiUpstreamStreamParser();
        OpenAiClientStreamWriter writer = new OpenAiClientStreamWriter(1_727_000_000L);
        translate(sse.feed(Payloads.FIRST_CHUNK), parser, writer, bh);
        for (byte[] chunk : chunks) {
            translate(sse.feed(chunk), parser, writer, bh);
        }
        translate(sse.feed(Payloads.LAST_CHUNKS), parser, writer, bh);
        for (StreamEvent e : parser.onEnd()) {
            bh.consume(writer.write(e));
        }
    }

    private static void translate(java.util.List<SseEvent> events, OpenAiUpstreamStreamParser parser,
                                  OpenAiClientStreamWriter writer, Blackhole bh) {
        for (SseEvent e : events) {
            for (StreamEvent ev : parser.onData(e.data())) {
                bh.consume(writer.write(ev));
            }
        }
    }
}
