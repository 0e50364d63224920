package dev.switchboard.testkit;

import static dev.switchboard.testkit.TestClient.chat;
import static dev.switchboard.testkit.TestClient.json;
import static dev.switchboard.testkit.TestClient.streaming;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FaultTest extends FakeUpstreamSupport {
    private final TestClient client = new TestClient(upstream);

    @ParameterizedTest
    @CsvSource({
        "fake-fail500, 500, server_error",
        "fake-fail429, 429, rate_limit_error",
        "fake-fail400, 400, invalid_request_error",
        "fake-fail503, 503, server_error",
        "fake-fail529, 529, overloaded_error",
        "fake-fail500-reasoning, 500, server_error",
    })
    void failSuffixAnswersWithThatStatusAndAnErrorEnvelope(String model, int status, String type) throws Exception {
        HttpResponse<String> response = client.chatCompletion(streaming(chat(model, "hi"), true));

        assertThat(response.statusCode()).isEqualTo(status);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        JsonNode error = json(response.body()).get("error");
        assertThat(error.get("type").asText()).isEqualTo(type);
        assertThat(error.get("message").asText()).contains(model);
        assertThat(error.get("param").isNull()).isTrue();
        assertThat(error.get("code").isNull()).isTrue();
        assertThat(response.headers().firstValue("retry-after")).isEqualTo(
                status == 429 ? java.util.Optional.of("1") : java.util.Optional.empty());
    }

    @Test
    void resetSuffixResetsTheConnectionWithoutAnswering() {
        assertThatThrownBy(() -> client.chatCompletion(chat("fake-reset", "hi")))
                .isInstanceOf(IOException.class)
                .isNotInstanceOf(HttpTimeoutException.class);
        assertThat(upstream.received("fake-reset")).hasSize(1);
    }

    @Test
    void resetIsARealTcpReset() throws Exception {
        try (RawConnection connection = new RawConnection(upstream)) {
            connection.write(RawConnection.post("/v1/chat/completions", chat("fake-reset", "hi").toString()));

            assertThatThrownBy(connection::closedByServer)
                    .isInstanceOf(java.net.SocketException.class)
                    .hasMessageContaining("reset");
        }
    }

    @Test
    void hangSuffixNeverAnswers() {
        var request = client.request("/v1/chat/completions", chat("fake-hang", "hi").toString())
                .timeout(Duration.ofMillis(300)).build();

        assertThatThrownBy(() -> client.send(request)).isInstanceOf(HttpTimeoutException.class);
        assertThat(upstream.received("fake-hang")).hasSize(1);
    }

    @Test
    void closeEndsAHangingConnectionAtOnce() throws Exception {
        try (RawConnection connection = new RawConnection(upstream)) {
            connection.write(RawConnection.post("/v1/chat/completions", chat("fake-hang", "hi").toString()));
            awaitReceived(1);

            long start = System.nanoTime();
            upstream.close();

            // The socket timeout is 5 s; a prompt close is seen as end of stream or a reset.
            try {
                assertThat(connection.closedByServer()).isTrue();
            } catch (java.net.SocketException reset) {
                assertThat(reset.getMessage()).contains("reset");
            }
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("closed by close(), not ended by the 5 s read timeout")
                    .isLessThan(Duration.ofSeconds(4));
        }
    }

    @Test
    void midfailCutsAStreamAfterThreeChunksWithoutDone() throws Exception {
        var request = client.request("/v1/chat/completions", streaming(chat("fake-midfail", "one two three"), true).toString())
                .build();
        HttpResponse<InputStream> response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);

        List<String> lines = linesUntilCut(response.body());
        List<String> data = lines.stream().filter(l -> l.startsWith("data: ")).map(l -> l.substring(6)).toList();
        assertThat(data).hasSize(3).doesNotContain("[DONE]");
        assertThat(json(data.get(0)).at("/choices/0/delta/role").asText()).isEqualTo("assistant");
        assertThat(json(data.get(1)).at("/choices/0/delta/content").asText()).isEqualTo("Hello");
        assertThat(json(data.get(2)).at("/choices/0/delta/content").asText()).isEqualTo(" from");
    }

    @Test
    void midfailCutsAPlainBodyInHalf() throws Exception {
        try (RawConnection connection = new RawConnection(upstream)) {
            connection.write(RawConnection.post("/v1/chat/completions", chat("fake-midfail", "hi").toString()));

            assertThatThrownBy(connection::read).isInstanceOf(IOException.class);
        }
        assertThatThrownBy(() -> client.chatCompletion(chat("fake-midfail", "hi"))).isInstanceOf(IOException.class);
    }

    @Test
    void slowFirstDelaysTheAnswerPastAShortTimeoutButNotALongOne() {
        var impatient = client.request("/v1/chat/completions", chat("fake-slowfirst", "hi").toString())
                .timeout(Duration.ofMillis(500)).build();
        var patient = client.request("/v1/chat/completions", chat("fake-slowfirst", "hi").toString())
                .timeout(Duration.ofSeconds(5)).build();
        long start = System.nanoTime();

        // Both at once, so the test waits for the delay only once.
        CompletableFuture<HttpResponse<String>> fast = CompletableFuture.supplyAsync(() -> sendUnchecked(impatient));
        CompletableFuture<HttpResponse<String>> slow = CompletableFuture.supplyAsync(() -> sendUnchecked(patient));

        assertThatThrownBy(fast::join).isInstanceOf(CompletionException.class)
                .hasRootCauseInstanceOf(HttpTimeoutException.class);
        HttpResponse<String> answered = slow.join();
        assertThat(answered.statusCode()).isEqualTo(200);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(FakeUpstream.SLOW_FIRST_BYTE);
        assertThat(json(answered.body()).at("/choices/0/message/content").asText()).startsWith("Hello from fake-slowfirst");
    }

    @Test
    void emptyStreamEndsBeforeItsFirstEvent() throws Exception {
        try (RawConnection connection = new RawConnection(upstream)) {
            connection.write(RawConnection.post("/v1/chat/completions",
                    streaming(chat("fake-empty", "hi"), true).toString()));

            RawConnection.Response response = connection.read();

            assertThat(response.status()).isEqualTo(200);
            assertThat(response.headers().get("content-type")).startsWith("text/event-stream");
            assertThat(response.body()).isEmpty();
            assertThat(connection.closedByServer()).isTrue();
        }
    }

    @Test
    void emptyPlainAnswerHasNoBody() throws Exception {
        HttpResponse<String> response = client.chatCompletion(chat("fake-empty", "hi"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEmpty();
    }

    private void awaitReceived(int count) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        while (upstream.received().size() < count) {
            assertThat(System.nanoTime()).as("request not received in time").isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    private HttpResponse<String> sendUnchecked(java.net.http.HttpRequest request) {
        try {
            return client.send(request);
        } catch (IOException | InterruptedException e) {
            throw new CompletionException(e);
        }
    }
}
