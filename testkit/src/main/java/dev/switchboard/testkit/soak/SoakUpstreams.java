package dev.switchboard.testkit.soak;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.testkit.FakeUpstream;
import dev.switchboard.testkit.RawExchange;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.SseStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The soak's providers: one {@link FakeUpstream} per provider, each speaking OpenAI chat completions for the
 * soak's upstream model and doing to each attempt what the {@link FaultSchedule} says. Every content chunk
 * carries the attempt's id and the chunk's number ({@code [p1-17:3]}), so the client can prove that a stream
 * never mixes two attempts and never skips or repeats a chunk. Every attempt is recorded for the oracle.
 */
public final class SoakUpstreams implements AutoCloseable {
    public static final String UPSTREAM_MODEL = "soak-up";
    /** A content chunk's stamp: attempt id and chunk number. */
    public static final Pattern STAMP = Pattern.compile("\\[(p\\d+-\\d+):(\\d+)\\]");
    private static final Pattern REQUEST = Pattern.compile("soak-(\\d+)-end");
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Prompt tokens the fake reports for every request. */
    public static final int PROMPT_TOKENS = 12;

    private final FaultSchedule schedule;
    private final Duration chunkPause;
    private final Duration tooLate;
    private final Map<String, FakeUpstream> fakes = new LinkedHashMap<>();
    private final Map<Long, AtomicInteger> attemptsPerRequest = new ConcurrentHashMap<>();
    private final Map<Long, List<UpstreamAttempt>> byRequest = new ConcurrentHashMap<>();
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong stray = new AtomicLong();

    /** How many chunk stamps {@code text} carries. */
    public static int stamps(CharSequence text) {
        return (int) STAMP.matcher(text).results().count();
    }

    /**
     * @param providers  the provider ids, each getting its own fake on a free loopback port
     * @param chunkPause the pause between two content chunks
     * @param tooLate    how long a {@link Fault#FIRST_BYTE_TOO_LATE} waits (more than the gateway's first-byte deadline)
     */
    public SoakUpstreams(List<String> providers, FaultSchedule schedule, Duration chunkPause, Duration tooLate) {
        this.schedule = schedule;
        this.chunkPause = chunkPause;
        this.tooLate = tooLate;
        AtomicInteger counter = new AtomicInteger();
        for (String p : providers) {
            FakeUpstream fake = FakeUpstream.start();
            fake.script(UPSTREAM_MODEL, (request, exchange) -> serve(p, counter, request, exchange));
            fakes.put(p, fake);
        }
    }

    /** The OpenAI base URL of {@code provider}'s fake. */
    public String baseUrl(String provider) {
        return fakes.get(provider).openAiBaseUrl();
    }

    /** Each provider's fake port, by provider. */
    public Map<String, Integer> ports() {
        Map<String, Integer> out = new LinkedHashMap<>();
        fakes.forEach((p, f) -> out.put(p, f.port()));
        return out;
    }

    /** Every attempt made for soak request {@code n}, in order. */
    public List<UpstreamAttempt> attempts(long n) {
        return byRequest.getOrDefault(n, List.of());
    }

    /** Every upstream call received, soak request or not. */
    public long calls() {
        return calls.get();
    }

    /** Calls that named no soak request (should be none). */
    public long strayCalls() {
        return stray.get();
    }

    public Collection<List<UpstreamAttempt>> allAttempts() {
        return byRequest.values();
    }

    private void serve(String provider, AtomicInteger counter, RecordedRequest request, RawExchange exchange)
            throws IOException {
        calls.incrementAndGet();
        Matcher m = REQUEST.matcher(request.bodyText());
        if (!m.find()) {
            stray.incrementAndGet();
            exchange.respondJson(400, error("the soak upstream got a request without a soak id"));
            return;
        }
        long n = Long.parseLong(m.group(1));
        int index = attemptsPerRequest.computeIfAbsent(n, k -> new AtomicInteger()).getAndIncrement();
        Fault fault = schedule.fault(n, index);
        UpstreamAttempt attempt = new UpstreamAttempt(provider + "-" + counter.incrementAndGet(), provider, n, index, fault);
        byRequest.computeIfAbsent(n, k -> new CopyOnWriteArrayList<>()).add(attempt);
        boolean stream = request.bodyText().contains("\"stream\":true");
        attempt.open = true;
        try {
            switch (fault) {
                case SERVER_ERROR -> exchange.respondJson(schedule.serverStatus(n, index), error("scheduled outage"));
                case RATE_LIMITED -> exchange.respondJson(429, Map.of("retry-after", "1"), error("scheduled rate limit"));
                case RESET_BEFORE_HEADERS -> exchange.resetConnection();
                case STALL_AFTER_HEADERS -> {
                    exchange.openSse(200);
                    exchange.hangUntilClosed();
                    attempt.closedNanos = System.nanoTime();
                }
                case FIRST_BYTE_TOO_LATE -> {
                    Thread.sleep(tooLate);
                    answer(attempt, exchange, stream, schedule.chunks(n, index), false);
                }
                case MALFORMED_SSE -> {
                    SseStream sse = exchange.openSse(200);
                    sse.raw("data: {\"id\":\"x\",\"choices\":[{\"delta\":{\"content\":\"broken\"\n\n");
                    sse.data("[DONE]");
                    sse.end();
                }
                case RESET_MID_STREAM -> answer(attempt, exchange, stream, schedule.chunks(n, index), true);
                case NONE -> answer(attempt, exchange, stream, schedule.chunks(n, index), false);
            }
        } catch (IOException e) {
            attempt.closedNanos = System.nanoTime();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            attempt.open = false;
        }
    }

    private void answer(UpstreamAttempt a, RawExchange exchange, boolean stream, int chunks, boolean cut)
            throws IOException, InterruptedException {
        int cutAfter = cut ? schedule.cutAfter(a.request, a.index) : Integer.MAX_VALUE;
        if (!stream) {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < chunks; i++) {
                text.append(stamp(a, i));
            }
            ObjectNode body = JSON.createObjectNode().put("id", "chatcmpl-" + a.id).put("object", "chat.completion")
                    .put("created", 0).put("model", UPSTREAM_MODEL);
            ObjectNode choice = body.putArray("choices").addObject().put("index", 0).put("finish_reason", "stop");
            choice.putObject("message").put("role", "assistant").put("content", text.toString());
            usage(body, chunks);
            if (cut) {
                byte[] bytes = JSON.writeValueAsBytes(body);
                a.endedByFake = true;
                exchange.respondTruncatedThenReset(200, Map.of("content-type", "application/json"), bytes, bytes.length / 2);
                return;
            }
            exchange.respondJson(200, body);
            a.chunksSent = chunks;
            a.completed = true;
            return;
        }
        SseStream sse = exchange.openSse(200);
        sse.data(chunk(a, JSON.createObjectNode().put("role", "assistant").put("content", ""), null));
        for (int i = 0; i < chunks; i++) {
            if (i == cutAfter) {
                a.endedByFake = true;
                exchange.resetConnection();
                return;
            }
            Thread.sleep(chunkPause);
            sse.data(chunk(a, JSON.createObjectNode().put("content", stamp(a, i)), null));
            a.chunksSent = i + 1;
        }
        sse.data(chunk(a, JSON.createObjectNode(), "stop"));
        ObjectNode usage = JSON.createObjectNode().put("id", "chatcmpl-" + a.id).put("object", "chat.completion.chunk")
                .put("created", 0).put("model", UPSTREAM_MODEL);
        usage.putArray("choices");
        usage(usage, chunks);
        sse.data(JSON.writeValueAsString(usage));
        sse.data("[DONE]");
        sse.end();
        a.completed = true;
    }

    static String stamp(UpstreamAttempt a, int i) {
        return "[" + a.id + ":" + i + "]";
    }

    private static String chunk(UpstreamAttempt a, ObjectNode delta, String finish) throws IOException {
        return chunk("chatcmpl-" + a.id, UPSTREAM_MODEL, delta, finish);
    }

    /** One chat-completions stream chunk of {@code model} carrying {@code delta}, finished when {@code finish} is not null. */
    static String chunk(String id, String model, ObjectNode delta, String finish) throws IOException {
        ObjectNode c = JSON.createObjectNode().put("id", id).put("object", "chat.completion.chunk")
                .put("created", 0).put("model", model);
        ObjectNode choice = c.putArray("choices").addObject().put("index", 0);
        choice.set("delta", delta);
        if (finish == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finish);
        }
        return JSON.writeValueAsString(c);
    }

    private static void usage(ObjectNode body, int chunks) {
        body.putObject("usage").put("prompt_tokens", PROMPT_TOKENS).put("completion_tokens", chunks)
                .put("total_tokens", PROMPT_TOKENS + chunks);
    }

    private static ObjectNode error(String message) {
        ObjectNode body = JSON.createObjectNode();
        body.putObject("error").put("message", message).put("type", "server_error").putNull("param").putNull("code");
        return body;
    }

    /**
     * Attempts whose connection the gateway never closed although they were left unfinished (a stall, a late first
     * byte, a stream the client left): an upstream socket left open. Attempts that ended on the fake's side (an
     * error status, a reset, a malformed or complete stream) are not counted.
     */
    public List<String> leftOpen() {
        List<String> out = new ArrayList<>();
        byRequest.values().forEach(l -> l.stream().filter(a -> a.open)
                .forEach(a -> out.add(a.id + " (request " + a.request + ", " + a.fault + ", " + a.chunksSent + " chunks)")));
        return out;
    }

    @Override
    public void close() {
        fakes.values().forEach(FakeUpstream::close);
    }
}
