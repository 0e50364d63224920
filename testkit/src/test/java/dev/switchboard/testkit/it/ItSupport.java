package dev.switchboard.testkit.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.errors.OpenAIServiceException;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestGateway;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What the end-to-end tests share: the gateway config they run against (every provider points at the fake
 * upstream; the suffixes of the upstream model names script its behaviour), an OpenAI SDK client for a
 * gateway, and a raw HTTP client for what an SDK cannot send or hides.
 */
final class ItSupport {
    /** The key every provider but {@code rotating} sends upstream; the fake accepts nothing else. */
    static final String UPSTREAM_KEY = "sk-upstream-main-0123456789";
    static final String ROTATING_KEY_1 = "sk-upstream-k1-0123456789";
    static final String ROTATING_KEY_2 = "sk-upstream-k2-0123456789";

    static final String CONFIG = TestGateway.DEFAULT_HEADER + """
            providers:
              fake:
                type: openai
                base_url: ${UPSTREAM_OPENAI}
                keys: ["%1$s"]
                timeouts: {connect: 1s, first_byte: 3s, idle: 3s, total: 10s}
              quick:
                type: openai
                base_url: ${UPSTREAM_OPENAI}
                keys: ["%1$s"]
                timeouts: {connect: 1s, first_byte: 500ms, idle: 1s, total: 10s}
              rotating:
                type: openai
                base_url: ${UPSTREAM_OPENAI}
                keys: ["%2$s", "%3$s"]
                timeouts: {connect: 1s, first_byte: 3s, idle: 3s, total: 10s}
              revoked:
                type: openai
                base_url: ${UPSTREAM_OPENAI}
                keys: ["sk-upstream-revoked-0123456789"]
                timeouts: {connect: 1s, first_byte: 3s, idle: 3s, total: 10s}
            models:
              chat-basic:
                aliases: [chat-old]
                context_length: 8192
                max_output_tokens: 1024
                pricing: {input: 1.25, output: 2.50}
                route: [{provider: fake, model: up-basic}]
              chat-tools:
                context_length: 8192
                max_output_tokens: 1024
                supports_tools: true
                supports_reasoning: true
                pricing: {input: 3, output: 15, cache_read: 0.3}
                route: [{provider: fake, model: up-tools}]
              chat-parallel:
                context_length: 8192
                max_output_tokens: 1024
                supports_tools: true
                pricing: {input: 0, output: 0}
                route: [{provider: fake, model: up-tools-parallel}]
              chat-failover:
                context_length: 8192
                max_output_tokens: 1024
                pricing: {input: 0, output: 0}
                route:
                  - {provider: fake, model: up-first-fail500}
                  - {provider: fake, model: up-second-reset}
                  - {provider: fake, model: up-third}
              chat-hang:
                context_length: 8192
                max_output_tokens: 1024
                pricing: {input: 0, output: 0}
                route:
                  - {provider: quick, model: up-stuck-hang}
                  - {provider: fake, model: up-rescue-one}
              chat-slow:
                context_length: 8192
                max_output_tokens: 1024
                pricing: {input: 0, output: 0}
                route:
                  - {provider: quick, model: up-late-slowfirst}
                  - {provider: fake, model: up-rescue-two}
              chat-down:
                context_length: 8192
                max_output_tokens: 1024
                pricing: {input: 0, output: 0}
                route:
                  - {provider: fake, model: up-down-fail503}
                  - {provider: fake, model: up-broken-fail502}
              chat-backup:
                context_length: 8192
                max_output_tokens: 1024
                pricing: {input: 0, output: 0}
                route: [{provider: fake, model: up-backup}]
              chat-limited:
                context_length: 8192
                max_output_tokens: 1024
                pricing: {input: 0, output: 0}
                route:
                  - {provider: fake, model: up-busy-fail429}
                  - {provider: fake, model: up-busier-fail429}
              chat-midfail:
                context_length: 8192
                max_output_tokens: 1024
                pricing: {input: 0, output: 0}
                route:
                  - {provider: fake, model: up-cut-midfail}
                  - {provider: fake, model: up-rescue-four}
              chat-empty:
                context_length: 8192
                max_output_tokens: 1024
                pricing: {input: 0, output: 0}
                route:
                  - {provider: fake, model: up-void-empty}
                  - {provider: fake, model: up-rescue-three}
              chat-rotating:
                context_length: 8192
                max_output_tokens: 1024
                pricing: {input: 0, output: 0}
                route: [{provider: rotating, model: up-rotating}]
              chat-stall:
                context_length: 8192
                max_output_tokens: 1024
                pricing: {input: 0, output: 0}
                route:
                  - {provider: quick, model: up-stall}
                  - {provider: fake, model: up-rescue-five}
              chat-rejects:
                context_length: 8192
                max_output_tokens: 1024
                pricing: {input: 0, output: 0}
                route:
                  - {provider: fake, model: up-picky-fail400}
                  - {provider: fake, model: up-never-asked}
              chat-misconfigured:
                context_length: 8192
                max_output_tokens: 1024
                pricing: {input: 0, output: 0}
                route:
                  - {provider: revoked, model: up-unpaid}
                  - {provider: fake, model: up-down-fail503}
              chat-slow-stream:
                context_length: 8192
                max_output_tokens: 1024
                pricing: {input: 0, output: 0}
                route: [{provider: fake, model: up-trickle}]
            """.formatted(UPSTREAM_KEY, ROTATING_KEY_1, ROTATING_KEY_2);

    static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();

    private ItSupport() {
    }

    /**
     * A config with one fake OpenAI-format provider (accepting {@link #UPSTREAM_KEY}) and one model on it, {@code model}
     * priced {@code pricing} (e.g. {@code "{input: 1, output: 2}"}), followed by {@code more} (top-level YAML: plans,
     * limits, redis...).
     */
    static String oneModelConfig(String model, String pricing, String more) {
        return TestGateway.DEFAULT_HEADER + """
                providers:
                  fake:
                    type: openai
                    base_url: ${UPSTREAM_OPENAI}
                    keys: ["%s"]
                    timeouts: {connect: 1s, first_byte: 3s, idle: 3s, total: 10s}
                models:
                  %s:
                    context_length: 8192
                    max_output_tokens: 1024
                    pricing: %s
                    route: [{provider: fake, model: up-basic}]
                """.formatted(UPSTREAM_KEY, model, pricing) + more;
    }

    /** The gateway on {@link #CONFIG}, the fake accepting {@link #UPSTREAM_KEY}, with an OpenAI SDK client. */
    static SdkGateway<OpenAIClient> openAiGateway() {
        return new SdkGateway<>(CONFIG, ItSupport::client, UPSTREAM_KEY);
    }

    /** An SDK client for {@code gateway} with the test user's key; no SDK retries, so every failure is the gateway's. */
    static OpenAIClient client(TestGateway gateway) {
        return client(gateway, gateway.apiKey());
    }

    static OpenAIClient client(TestGateway gateway, String apiKey) {
        return OpenAIOkHttpClient.builder()
                .baseUrl(gateway.openAiBaseUrl())
                .apiKey(apiKey)
                .maxRetries(0)
                .responseValidation(true)
                .timeout(Duration.ofSeconds(15))
                .build();
    }

    /** A one-message request for {@code model}. */
    static ChatCompletionCreateParams ask(String model, String text) {
        return ChatCompletionCreateParams.builder().model(model).addUserMessage(text).build();
    }

    /** The upstream model names the fake received, in arrival order. */
    static List<String> upstreamModels(TestGateway gateway) {
        return gateway.upstream().received().stream().map(r -> r.model().orElse("?")).toList();
    }

    static HttpResponse<String> post(TestGateway gateway, String path, Map<String, String> headers, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path))
                .timeout(Duration.ofSeconds(15))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(b::header);
        return send(b.build());
    }

    static HttpResponse<String> get(TestGateway gateway, String path, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path))
                .timeout(Duration.ofSeconds(15)).GET();
        headers.forEach(b::header);
        return send(b.build());
    }

    static HttpResponse<String> put(TestGateway gateway, String path, Map<String, String> headers, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path))
                .timeout(Duration.ofSeconds(15))
                .PUT(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(b::header);
        return send(b.build());
    }

    static HttpResponse<String> patch(TestGateway gateway, String path, Map<String, String> headers, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path))
                .timeout(Duration.ofSeconds(15))
                .method("PATCH", HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(b::header);
        return send(b.build());
    }

    static HttpResponse<String> delete(TestGateway gateway, String path, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path))
                .timeout(Duration.ofSeconds(15)).DELETE();
        headers.forEach(b::header);
        return send(b.build());
    }

    static Map<String, String> bearer(String key) {
        return Map.of("authorization", "Bearer " + key, "content-type", "application/json");
    }

    private static HttpResponse<String> send(HttpRequest request) {
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A new key of the test user with {@code limits} (JSON members such as {@code "rpm": 5}), through the admin API. */
    static String keyWith(TestGateway gateway, String limits) {
        HttpResponse<String> r = post(gateway, "/admin/v1/users/" + gateway.userId() + "/keys", bearer(gateway.adminKey()),
                "{" + limits + "}");
        if (r.statusCode() != 201) {
            throw new AssertionError("creating a key with " + limits + " answered " + r.statusCode() + ": " + r.body());
        }
        return json(r.body()).path("key").asText();
    }

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The JSON body of an SDK error, as the SDK parsed it. */
    static JsonNode body(OpenAIServiceException e) {
        return e.body().convert(JsonNode.class);
    }

    /** The {@code data:} payloads of an SSE body, in order. */
    static List<String> sseData(String body) {
        return body.lines().filter(l -> l.startsWith("data:")).map(l -> l.substring(5).strip()).toList();
    }

    /** The authorization header the fake received with {@code request}. */
    static String authorization(RecordedRequest request) {
        return request.header("authorization").orElse("");
    }
}
