package dev.switchboard.testkit.it.soak;

import static dev.switchboard.testkit.GatewayConfigSupport.SLOWER;
import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.provider;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.testkit.GatewayExtension;
import dev.switchboard.testkit.TestGateway;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code Idempotency-Key} on the four chat endpoints: 20 concurrent copies of a request make one upstream call
 * and get the same answer body (streams too); the same key with another body is a 409 in the endpoint's format;
 * an answer that failed is not kept, so a repeat runs anew.
 */
class IdempotencyIT {
    private static final String UPSTREAM_KEY = "sk-upstream-idem-0123456789";
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final GatewayExtension GATEWAY = new GatewayExtension(TestGateway.DEFAULT_HEADER
            + providers(provider("fake", "openai", "${UPSTREAM_OPENAI}", SLOWER, UPSTREAM_KEY))
            + models(
                    model("idem").pricing("{input: 1, output: 2}").route("fake/up-idem-slowfirst"),
                    model("idem-down").pricing("{input: 1, output: 2}").route("fake/up-down-fail503")));

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    /** A chat request of {@code format} for {@code model}. */
    private static HttpRequest.Builder request(String format, String model, boolean stream, String text) {
        TestGateway g = GATEWAY.gateway();
        String path;
        String body;
        switch (format) {
            case "chat" -> {
                path = "/v1/chat/completions";
                body = "{\"model\":\"%s\",\"stream\":%s,\"messages\":[{\"role\":\"user\",\"content\":\"%s\"}]}"
                        .formatted(model, stream, text);
            }
            case "messages" -> {
                path = "/v1/messages";
                body = "{\"model\":\"%s\",\"stream\":%s,\"max_tokens\":50,\"messages\":[{\"role\":\"user\",\"content\":\"%s\"}]}"
                        .formatted(model, stream, text);
            }
            case "gemini" -> {
                path = "/v1beta/models/" + model + (stream ? ":streamGenerateContent?alt=sse" : ":generateContent");
                body = "{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"%s\"}]}]}".formatted(text);
            }
            case "responses" -> {
                path = "/v1/responses";
                body = "{\"model\":\"%s\",\"stream\":%s,\"store\":false,\"input\":\"%s\"}".formatted(model, stream, text);
            }
            default -> throw new IllegalArgumentException(format);
        }
        return HttpRequest.newBuilder(URI.create(g.baseUrl() + path))
                .timeout(Duration.ofSeconds(60))
                .header("content-type", "application/json")
                .header("authorization", "Bearer " + g.apiKey())
                .header("x-goog-api-key", g.apiKey())
                .header("anthropic-version", "2023-06-01")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    private static HttpResponse<String> send(HttpRequest r) throws Exception {
        return HTTP.send(r, HttpResponse.BodyHandlers.ofString());
    }

    @ParameterizedTest(name = "{0} stream={1}")
    @CsvSource({"chat,false", "chat,true", "messages,false", "messages,true", "gemini,false", "gemini,true",
            "responses,false", "responses,true"})
    void twentyConcurrentCopiesMakeOneUpstreamCallAndGetOneAnswer(String format, boolean stream) throws Exception {
        String key = UUID.randomUUID().toString();
        HttpRequest r = request(format, "idem", stream, "hello " + format + stream).header("Idempotency-Key", key).build();
        CountDownLatch go = new CountDownLatch(1);
        List<Future<HttpResponse<String>>> answers = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(20)) {
            for (int i = 0; i < 20; i++) {
                answers.add(pool.submit(() -> {
                    go.await();
                    return send(r);
                }));
            }
            go.countDown();
            String first = null;
            int replayed = 0;
            for (Future<HttpResponse<String>> f : answers) {
                HttpResponse<String> a = f.get();
                assertThat(a.statusCode()).as(a.body()).isEqualTo(200);
                first = first == null ? a.body() : first;
                assertThat(a.body()).isEqualTo(first);
                replayed += a.headers().firstValue("idempotent-replayed").isPresent() ? 1 : 0;
                if (stream) {
                    assertThat(a.headers().firstValue("content-type").orElse("")).contains("text/event-stream");
                }
            }
            assertThat(replayed).isEqualTo(19);
            assertThat(first).contains("Hello").contains("up-idem-slowfirst");
        }
        assertThat(GATEWAY.gateway().upstream().received("up-idem-slowfirst")).hasSize(1);

        // later repeats replay too; without the key the request runs again
        assertThat(send(r).body()).isEqualTo(answers.get(0).get().body());
        assertThat(GATEWAY.gateway().upstream().received("up-idem-slowfirst")).hasSize(1);
        assertThat(send(request(format, "idem", stream, "hello " + format + stream).build()).statusCode()).isEqualTo(200);
        assertThat(GATEWAY.gateway().upstream().received("up-idem-slowfirst")).hasSize(2);
    }

    @ParameterizedTest
    @CsvSource({"chat", "messages", "gemini", "responses"})
    void theSameKeyWithAnotherBodyIsA409InTheFormatsEnvelope(String format) throws Exception {
        String key = UUID.randomUUID().toString();
        assertThat(send(request(format, "idem", false, "one").header("Idempotency-Key", key).build()).statusCode())
                .isEqualTo(200);
        HttpResponse<String> other = send(request(format, "idem", false, "two").header("Idempotency-Key", key).build());
        assertThat(other.statusCode()).isEqualTo(409);
        JsonNode body = JSON.readTree(other.body());
        assertThat(body.path("error").path("code").asText()).isEqualTo("409");
        assertThat(body.path("error").path("param").asText()).isEqualTo("Idempotency-Key");
        assertThat(body.path("error").path("message").asText()).contains("different request");
        switch (format) {
            case "messages" -> assertThat(body.path("type").asText()).isEqualTo("error");
            case "gemini" -> assertThat(body.path("error").path("status").asText()).isNotBlank();
            default -> assertThat(body.has("type")).isFalse();
        }
        assertThat(GATEWAY.gateway().upstream().received("up-idem-slowfirst")).hasSize(1);
    }

    @Test
    void aFailedRequestIsNotKeptSoARepeatRunsAgain() throws Exception {
        String key = UUID.randomUUID().toString();
        HttpRequest r = request("chat", "idem-down", false, "x").header("Idempotency-Key", key).build();
        assertThat(send(r).statusCode()).isEqualTo(503);
        assertThat(send(r).statusCode()).isEqualTo(503);
        assertThat(GATEWAY.gateway().upstream().received("up-down-fail503")).hasSize(2);
    }

    @Test
    void aMalformedKeyIsA400NamingTheHeader() throws Exception {
        HttpResponse<String> a = send(request("chat", "idem", false, "x").header("Idempotency-Key", "x".repeat(256)).build());
        assertThat(a.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(a.body()).path("error").path("param").asText()).isEqualTo("Idempotency-Key");
        assertThat(GATEWAY.gateway().upstream().received()).isEmpty();
    }

    @Test
    void keysAreScopedToTheApiKey() throws Exception {
        String key = UUID.randomUUID().toString();
        assertThat(send(request("chat", "idem", false, "one").header("Idempotency-Key", key).build()).statusCode())
                .isEqualTo(200);
        String otherKey = GATEWAY.gateway().newKey(List.of(), List.of());
        HttpResponse<String> other = send(request("chat", "idem", false, "two").header("Idempotency-Key", key)
                .setHeader("authorization", "Bearer " + otherKey).build());
        assertThat(other.statusCode()).isEqualTo(200);
        assertThat(other.headers().firstValue("idempotent-replayed")).isEmpty();
        assertThat(GATEWAY.gateway().upstream().received("up-idem-slowfirst")).hasSize(2);
    }
}
