package dev.switchboard.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.openai.OpenAi;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Translation cost per request and per answer, chat-completions on both sides, from bytes to bytes as
 * the edge sees them, plus the steps alone to show where the time goes.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class TranslationBenchmarks {
    private JsonNode clientTree;
    private ChatRequest canonicalRequest;
    private JsonNode upstreamTree;
    private ChatResponse canonicalResponse;

    @Setup
    public void setUp() {
        clientTree = Json.parse(Payloads.CLIENT_REQUEST);
        canonicalRequest = OpenAi.fromClient(clientTree);
        upstreamTree = Json.parse(Payloads.UPSTREAM_RESPONSE);
        canonicalResponse = OpenAi.fromUpstream(upstreamTree);
    }

    /** Client request bytes to upstream request bytes: parse, fromClient, toUpstream, serialise. */
    @Benchmark
    public byte[] requestBytesToBytes() {
        ChatRequest r = OpenAi.fromClient(Payloads.CLIENT_REQUEST);
        return Json.writeBytes(OpenAi.toUpstream(r, "gpt-4o-2024-08-06", true));
    }

    /** fromClient alone, on an already parsed tree. */
    @Benchmark
    public ChatRequest fromClient() {
        return OpenAi.fromClient(clientTree);
    }

    /** toUpstream alone (tree only, no serialisation). */
    @Benchmark
    public JsonNode toUpstream() {
        return OpenAi.toUpstream(canonicalRequest, "gpt-4o-2024-08-06", true);
    }

    /** Upstream answer bytes to client answer bytes: parse, fromUpstream, toClient, serialise. */
    @Benchmark
    public byte[] responseBytesToBytes() {
        ChatResponse r = OpenAi.fromUpstream(Json.parse(Payloads.UPSTREAM_RESPONSE));
        return Json.writeBytes(OpenAi.toClient(r, 1_727_000_000L));
    }

    /** fromUpstream alone, on an already parsed tree. */
    @Benchmark
    public ChatResponse fromUpstream() {
        return OpenAi.fromUpstream(upstreamTree);
    }

    /** toClient alone (tree only). */
    @Benchmark
    public JsonNode toClient() {
        return OpenAi.toClient(canonicalResponse, 1_727_000_000L);
    }
}
