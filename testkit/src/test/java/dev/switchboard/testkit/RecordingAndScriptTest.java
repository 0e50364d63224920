package dev.switchboard.testkit;

import static dev.switchboard.testkit.TestClient.chat;
import static dev.switchboard.testkit.TestClient.json;
import static dev.switchboard.testkit.TestClient.sseData;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RecordingAndScriptTest extends FakeUpstreamSupport {
    private final TestClient client = new TestClient(upstream);

    @Test
    void recordsRequestsInArrivalOrderWithBodyAndJson() throws Exception {
        client.chatCompletion(chat("model-a", "first"));
        client.chatCompletion(chat("model-b", "second"));
        client.post("/v1/chat/completions", "not json");

        List<RecordedRequest> received = upstream.received();
        assertThat(received).hasSize(3);
        assertThat(received.get(0).json().at("/messages/0/content").asText()).isEqualTo("first");
        assertThat(received.get(0).model()).hasValue("model-a");
        assertThat(received.get(1).bodyText()).isEqualTo(chat("model-b", "second").toString());
        assertThat(received.get(1).body()).isEqualTo(chat("model-b", "second").toString().getBytes(StandardCharsets.UTF_8));
        assertThat(received.get(2).json().isMissingNode()).isTrue();
        assertThat(received.get(2).model()).isEmpty();
        assertThat(received.get(0).header("content-type")).hasValue("application/json");
        assertThat(upstream.received("model-b")).containsExactly(received.get(1));
        assertThat(upstream.received("model-c")).isEmpty();
    }

    @Test
    void recordsAreImmutableSnapshots() throws Exception {
        client.chatCompletion(chat("model-a", "first"));
        List<RecordedRequest> before = upstream.received();
        client.chatCompletion(chat("model-a", "second"));

        assertThat(before).hasSize(1);
        assertThatThrownBy(() -> before.add(before.getFirst())).isInstanceOf(UnsupportedOperationException.class);
        byte[] body = before.getFirst().body();
        body[0] = 'X';
        assertThat(before.getFirst().body()[0]).isEqualTo((byte) '{');
    }

    @Test
    void resetForgetsReceivedRequestsButKeepsConfiguration() throws Exception {
        upstream.requireKey("sk-up-1");
        client.chatCompletion(chat("model-a", "first"));
        upstream.reset();

        assertThat(upstream.received()).isEmpty();
        assertThat(client.chatCompletion(chat("model-a", "again")).statusCode()).isEqualTo(401);
        assertThat(upstream.received()).hasSize(1);
    }

    @Test
    void recordsConcurrentRequestsWithoutLosingAny() throws Exception {
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<HttpResponse<String>>> calls = IntStream.range(0, 40)
                    .mapToObj(i -> pool.submit(() -> client.chatCompletion(chat("model-" + (i % 2), "n" + i))))
                    .toList();
            for (Future<HttpResponse<String>> call : calls) {
                assertThat(call.get().statusCode()).isEqualTo(200);
            }
        }

        assertThat(upstream.received()).hasSize(40);
        assertThat(upstream.received("model-0")).hasSize(20);
        assertThat(upstream.received()).extracting(r -> r.json().at("/messages/0/content").asText())
                .containsExactlyInAnyOrderElementsOf(IntStream.range(0, 40).mapToObj(i -> "n" + i).toList());
    }

    @Test
    void scriptedResponderCanSendAMidStreamErrorFrame() throws Exception {
        String chunk = "{\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"custom\","
                + "\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hi\"},\"finish_reason\":null}]}";
        String error = "{\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\",\"param\":null,\"code\":null}}";
        upstream.script("custom", (request, exchange) -> {
            SseStream sse = exchange.openSse(200);
            sse.data(chunk);
            sse.data(error);
            sse.data("[DONE]");
            sse.end();
        });

        HttpResponse<String> response = client.chatCompletion(chat("custom", "hi"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(sseData(response.body())).containsExactly(chunk, error, "[DONE]");
        assertThat(upstream.received("custom")).hasSize(1);
    }

    @Test
    void scriptedResponderCanWriteRawBytes() throws Exception {
        upstream.script("teapot", (request, exchange) -> exchange.rawOutput().write(
                "HTTP/1.1 418 I'm a teapot\r\ncontent-length: 5\r\n\r\nshort".getBytes(StandardCharsets.US_ASCII)));

        HttpResponse<String> response = client.chatCompletion(chat("teapot", "hi"));

        assertThat(response.statusCode()).isEqualTo(418);
        assertThat(response.body()).isEqualTo("short");
    }

    @Test
    void scriptedResponderStillNeedsTheKey() throws Exception {
        upstream.requireKey("sk-up-1").script("custom", (request, exchange) -> exchange.respondJson(200, json("{}")));

        assertThat(client.chatCompletion(chat("custom", "hi")).statusCode()).isEqualTo(401);
    }

    @Test
    void aResponderThatAnswersNothingYieldsA500() throws Exception {
        upstream.script("lazy", (request, exchange) -> { });

        assertThat(client.chatCompletion(chat("lazy", "hi")).statusCode()).isEqualTo(500);
    }

    @Test
    void aResponderThatThrowsYieldsA500() throws Exception {
        upstream.script("broken", (request, exchange) -> {
            throw new IllegalStateException("boom");
        });

        HttpResponse<String> response = client.chatCompletion(chat("broken", "hi"));

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.body()).contains("boom");
    }

    @Test
    void answeringTwiceIsRefused() throws Exception {
        upstream.script("twice", (request, exchange) -> {
            exchange.respondJson(200, json("{}"));
            try {
                exchange.respondJson(200, json("{}"));
            } catch (IllegalStateException expected) {
                return;
            }
            throw new IOException("second answer was accepted");
        });

        assertThat(client.chatCompletion(chat("twice", "hi")).statusCode()).isEqualTo(200);
    }
}
