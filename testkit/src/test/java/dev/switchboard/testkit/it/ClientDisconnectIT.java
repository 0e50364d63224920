package dev.switchboard.testkit.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.openai.client.OpenAIClient;
import com.openai.core.http.StreamResponse;
import com.openai.models.chat.completions.ChatCompletionChunk;
import dev.switchboard.testkit.GatewayExtension;
import dev.switchboard.testkit.SseStream;
import dev.switchboard.testkit.TestGateway;
import java.io.IOException;
import java.util.Iterator;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A client that leaves mid-stream cancels the upstream request at once (CONTRACTS.md §2). */
class ClientDisconnectIT {
    @RegisterExtension
    static final GatewayExtension GATEWAY = new GatewayExtension(ItSupport.CONFIG);

    private static final int PIECES = 200;
    private static final long PIECE_INTERVAL_MS = 25;

    private static TestGateway gateway;
    private static OpenAIClient client;
    private static final AtomicInteger sent = new AtomicInteger();
    private static final CountDownLatch upstreamSawClose = new CountDownLatch(1);
    private static final CountDownLatch upstreamFinished = new CountDownLatch(1);

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
        long closedAt = System.nanoTime();

        assertThat(received).isEqualTo(3);
        assertThat(upstreamSawClose.await(3, TimeUnit.SECONDS))
                .as("the fake upstream saw its connection closed").isTrue();
        long tookMs = (System.nanoTime() - closedAt) / 1_000_000;
        assertThat(upstreamFinished.getCount()).as("the upstream never got to finish its answer").isEqualTo(1);
        assertThat(sent.get()).isLessThan(PIECES / 2);
        assertThat(tookMs).as("cancelled within a few pieces of the disconnect").isLessThan(1500);
    }
}
