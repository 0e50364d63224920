package dev.switchboard.testkit.it;

import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.openAiProvider;
import static dev.switchboard.testkit.GatewayConfigSupport.provider;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;
import static dev.switchboard.testkit.GatewayConfigSupport.untimedProvider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.errors.OpenAIServiceException;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionFunctionTool;
import dev.switchboard.testkit.HttpSupport;
import dev.switchboard.testkit.JsonSupport;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestGateway;
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
public final class ItSupport {
    /** The key every provider but {@code rotating} sends upstream; the fake accepts nothing else. */
    static final String UPSTREAM_KEY = "sk-upstream-main-0123456789";
    static final String ROTATING_KEY_1 = "sk-upstream-k1-0123456789";
    static final String ROTATING_KEY_2 = "sk-upstream-k2-0123456789";

    static final String CONFIG = TestGateway.DEFAULT_HEADER
            + providers(
                    openAiProvider("fake", UPSTREAM_KEY),
                    provider("quick", "openai", "${UPSTREAM_OPENAI}", "{connect: 1s, first_byte: 500ms, idle: 1s, total: 10s}",
                            UPSTREAM_KEY),
                    openAiProvider("rotating", ROTATING_KEY_1, ROTATING_KEY_2),
                    openAiProvider("revoked", "sk-upstream-revoked-0123456789"))
            + models(
                    model("chat-basic").aliases("chat-old").pricing("{input: 1.25, output: 2.50}").route("fake/up-basic"),
                    model("chat-tools").supports("tools", "reasoning").pricing("{input: 3, output: 15, cache_read: 0.3}")
                            .route("fake/up-tools"),
                    model("chat-parallel").supports("tools").route("fake/up-tools-parallel"),
                    model("chat-failover").route("fake/up-first-fail500", "fake/up-second-reset", "fake/up-third"),
                    model("chat-hang").route("quick/up-stuck-hang", "fake/up-rescue-one"),
                    model("chat-slow").route("quick/up-late-slowfirst", "fake/up-rescue-two"),
                    model("chat-down").route("fake/up-down-fail503", "fake/up-broken-fail502"),
                    model("chat-backup").route("fake/up-backup"),
                    model("chat-limited").route("fake/up-busy-fail429", "fake/up-busier-fail429"),
                    model("chat-midfail").route("fake/up-cut-midfail", "fake/up-rescue-four"),
                    model("chat-empty").route("fake/up-void-empty", "fake/up-rescue-three"),
                    model("chat-rotating").route("rotating/up-rotating"),
                    model("chat-stall").route("quick/up-stall", "fake/up-rescue-five"),
                    model("chat-rejects").route("fake/up-picky-fail400", "fake/up-never-asked"),
                    model("chat-misconfigured").route("revoked/up-unpaid", "fake/up-down-fail503"),
                    model("chat-slow-stream").route("fake/up-trickle"));

    static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();

    private ItSupport() {
    }

    /**
     * A config with one fake OpenAI-format provider (accepting {@link #UPSTREAM_KEY}) and one model on it, {@code name}
     * priced {@code pricing} (e.g. {@code "{input: 1, output: 2}"}), followed by {@code more} (top-level YAML: plans,
     * limits, redis...).
     */
    static String oneModelConfig(String name, String pricing, String more) {
        return TestGateway.DEFAULT_HEADER + providers(openAiProvider("fake", UPSTREAM_KEY))
                + models(model(name).pricing(pricing).route("fake/up-basic")) + more;
    }

    /**
     * An untimed provider of each upstream format on the fake, all sending {@code key}: {@code ant} (Anthropic),
     * {@code oai} (OpenAI chat completions) and {@code gem} (Gemini).
     */
    static String[] providerPerFormat(String key) {
        return new String[] {
            untimedProvider("ant", "anthropic", "${UPSTREAM}", key),
            untimedProvider("oai", "openai", "${UPSTREAM_OPENAI}", key),
            untimedProvider("gem", "gemini", "${UPSTREAM}", key)};
    }

    /** The gateway on {@link #CONFIG}, the fake accepting {@link #UPSTREAM_KEY}, with an OpenAI SDK client. */
    static SdkGateway<OpenAIClient> openAiGateway() {
        return openAiGateway(CONFIG);
    }

    /** The gateway on {@code config}, the fake accepting {@link #UPSTREAM_KEY}, with an OpenAI SDK client. */
    static SdkGateway<OpenAIClient> openAiGateway(String config) {
        return new SdkGateway<>(config, ItSupport::client, UPSTREAM_KEY);
    }

    /** An SDK client for {@code gateway} with the test user's key; no SDK retries, so every failure is the gateway's. */
    static OpenAIClient client(TestGateway gateway) {
        return client(gateway, gateway.apiKey());
    }

    static OpenAIClient client(TestGateway gateway, String apiKey) {
        return client(gateway, apiKey, Duration.ofSeconds(15));
    }

    /** An SDK client for {@code gateway} with {@code apiKey}: no SDK retries, strict response validation. */
    public static OpenAIClient client(TestGateway gateway, String apiKey, Duration timeout) {
        return OpenAIOkHttpClient.builder()
                .baseUrl(gateway.openAiBaseUrl())
                .apiKey(apiKey)
                .maxRetries(0)
                .responseValidation(true)
                .timeout(timeout)
                .build();
    }

    /** A one-message request for {@code model}. */
    static ChatCompletionCreateParams ask(String model, String text) {
        return ChatCompletionCreateParams.builder().model(model).addUserMessage(text).build();
    }

    /** A function tool {@code name} taking one required string {@code property}, described as looking it up. */
    static ChatCompletionFunctionTool tool(String name, String property) {
        return ChatCompletionFunctionTool.builder().function(FunctionDefinition.builder()
                .name(name)
                .description("Looks up the " + property)
                .parameters(FunctionParameters.builder()
                        .putAdditionalProperty("type", JsonValue.from("object"))
                        .putAdditionalProperty("properties", JsonValue.from(Map.of(property, Map.of("type", "string"))))
                        .putAdditionalProperty("required", JsonValue.from(List.of(property)))
                        .build())
                .build()).build();
    }

    /** The upstream model names the fake received, in arrival order. */
    static List<String> upstreamModels(TestGateway gateway) {
        return gateway.upstream().received().stream().map(r -> r.model().orElse("?")).toList();
    }

    static HttpResponse<String> post(TestGateway gateway, String path, Map<String, String> headers, String body) {
        return send(gateway, "POST", path, headers, HttpRequest.BodyPublishers.ofString(body));
    }

    static HttpResponse<String> get(TestGateway gateway, String path, Map<String, String> headers) {
        return send(gateway, "GET", path, headers, HttpRequest.BodyPublishers.noBody());
    }

    static HttpResponse<String> put(TestGateway gateway, String path, Map<String, String> headers, String body) {
        return send(gateway, "PUT", path, headers, HttpRequest.BodyPublishers.ofString(body));
    }

    static HttpResponse<String> patch(TestGateway gateway, String path, Map<String, String> headers, String body) {
        return send(gateway, "PATCH", path, headers, HttpRequest.BodyPublishers.ofString(body));
    }

    static HttpResponse<String> delete(TestGateway gateway, String path, Map<String, String> headers) {
        return send(gateway, "DELETE", path, headers, HttpRequest.BodyPublishers.noBody());
    }

    private static HttpResponse<String> send(TestGateway gateway, String method, String path, Map<String, String> headers,
                                             HttpRequest.BodyPublisher body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path))
                .timeout(Duration.ofSeconds(15))
                .method(method, body);
        headers.forEach(b::header);
        return send(b.build());
    }

    static Map<String, String> bearer(String key) {
        return Map.of("authorization", "Bearer " + key, "content-type", "application/json");
    }

    private static HttpResponse<String> send(HttpRequest request) {
        return HttpSupport.send(HTTP, request, HttpResponse.BodyHandlers.ofString());
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
        return JsonSupport.json(text);
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
