package dev.switchboard.testkit.it;

import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static org.assertj.core.api.Assertions.assertThat;

import com.openai.client.OpenAIClient;
import com.openai.core.http.StreamResponse;
import com.openai.models.chat.completions.ChatCompletionChunk;
import dev.switchboard.testkit.GatewayExtension;
import dev.switchboard.testkit.SseStream;
import dev.switchboard.testkit.TestGateway;
import java.io.IOException;
import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A client that leaves mid-stream cancels the upstream request (docs/contracts.md §2): at its next event when
 * the upstream is talking, and within one heartbeat interval when the upstream is silent. The assertions are
 * on what the upstream saw (its connection closed, how much it had sent), with generous outer bounds on time.
 */
class ClientDisconnectIT {
    private static final Duration HEARTBEAT = Duration.ofSeconds(2);

    @RegisterExtension
    static final GatewayExtension GATEWAY = new GatewayExtension(ItSupport.CONFIG
            + model("chat-silent").route("fake/up-silent").yaml()
            + "http: {heartbeat: %ds}\n".formatted(HEARTBEAT.toSeconds()));

    private static final int PIECES = 200;
    private static final long PIECE_INTERVAL_MS = 25;

    private static TestGateway gateway;
    private static OpenAIClient client;
    private static final AtomicInteger sent = new AtomicInteger();
    private static final CountDownLatch upstreamSawClose = new CountDownLatch(1);
    private static final CountDownLatch upstreamFinished = new CountDownLatch(1);
    private static final CountDownLatch silentSawClose = new CountDownLatch(1);
    private static final AtomicLong silentClosedAt = new AtomicLong();

    @BeforeAll
    static void connect() {
        gateway = GATEWAY.gateway();
        gateway.upstream().requireKey(ItSupport.UPSTREAM_KEY);
        // a slow stream: PIECES words, one every PIECE_INTERVAL_MS (5 s in all), noticing when the gateway hangs up
        gateway.upstream().script("up-trickle", (request, exchange) -> {
            SseStream sse = exchange.openSse(200);
            try {
                sse.data(chunk("{\"role\":\"assistant\",\"content\":\"\"}", "null"));
                for (int i = 0; i < PIECES; i++) {
                    sse.data(chunk("{\"content\":\"word" + i + " \"}", "null"));
                    sent.incrementAndGet();
                    Thread.sleep(PIECE_INTERVAL_MS);
                }
                sse.data(chunk("{}", "\"stop\""));
                sse.data("[DONE]");
                sse.end();
                upstreamFinished.countDown();
            } catch (IOException e) {
                upstreamSawClose.countDown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        // one word, then a long think: nothing the client sees, only SSE comments (which keep the gateway's idle
        // timer happy and show this fake when the gateway hangs up)
        gateway.upstream().script("up-silent", (request, exchange) -> {
            SseStream sse = exchange.openSse(200);
            try {
                sse.data(chunk("{\"role\":\"assistant\",\"content\":\"thinking\"}", "null"));
                long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (System.nanoTime() < until) {
                    Thread.sleep(50);
                    sse.raw(": still thinking\n\n");
                }
            } catch (IOException e) {
                silentClosedAt.set(System.nanoTime());
                silentSawClose.countDown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        client = ItSupport.client(gateway);
    }

    private static String chunk(String delta, String finishReason) {
        return "{\"id\":\"chatcmpl-trickle\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,"
                + "\"model\":\"up-trickle\",\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":"
                + finishReason + "}]}";
    }

    @Test
    void closingTheSdkStreamClosesTheUpstreamConnection() throws InterruptedException {
        int received = 0;
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions()
                .createStreaming(ItSupport.ask("chat-slow-stream", "talk slowly"))) {
            Iterator<ChatCompletionChunk> it = stream.stream().iterator();
            while (received < 3 && it.hasNext()) {
                if (it.next().choices().getFirst().delta().content().filter(c -> !c.isEmpty()).isPresent()) {
                    received++;
                }
            }
        } // closing the stream early disconnects, as an application that stops reading does

        assertThat(received).isEqualTo(3);
        assertThat(upstreamSawClose.await(30, TimeUnit.SECONDS)).as("the fake upstream saw its connection closed").isTrue();
        assertThat(upstreamFinished.getCount()).as("the upstream never got to finish its answer").isEqualTo(1);
        assertThat(sent.get()).as("the upstream was stopped long before its last word").isLessThan(PIECES / 2);
    }

    @Test
    void aClientThatLeavesWhileTheUpstreamIsSilentIsNoticedWithinAHeartbeatInterval() throws InterruptedException {
        long leftAt;
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions()
                .createStreaming(ItSupport.ask("chat-silent", "think hard"))) {
            Iterator<ChatCompletionChunk> it = stream.stream().iterator();
            while (it.hasNext() && it.next().choices().getFirst().delta().content().filter(c -> !c.isEmpty()).isEmpty()) {
                // until the one word
            }
            leftAt = System.nanoTime();
        }

        // the upstream goes on thinking for a minute unless the gateway hangs up on it
        assertThat(silentSawClose.await(30, TimeUnit.SECONDS)).as("the gateway cancelled the silent upstream").isTrue();
        Duration noticed = Duration.ofNanos(silentClosedAt.get() - leftAt);
        // one interval is the promise; the margin leaves room for a busy machine, not for the two intervals the
        // detection took when it waited for a heartbeat to fail
        assertThat(noticed).as("noticed %s after the client left", noticed)
                .isLessThan(HEARTBEAT.plusMillis(1500));
    }
}
