package dev.switchboard.testkit.it;

import static dev.switchboard.testkit.GatewayConfigSupport.TIMEOUTS;
import static dev.switchboard.testkit.GatewayConfigSupport.anthropicProvider;
import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.openAiProvider;
import static dev.switchboard.testkit.GatewayConfigSupport.provider;
import static dev.switchboard.testkit.GatewayConfigSupport.providerLine;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;

import com.google.genai.Client;
import com.google.genai.types.ClientOptions;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.GenerateContentConfig;
import com.google.genai.types.HttpOptions;
import com.google.genai.types.HttpRetryOptions;
import com.google.genai.types.Part;
import com.google.genai.types.Schema;
import com.google.genai.types.ThinkingConfig;
import com.google.genai.types.Tool;
import com.google.genai.types.Type;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.GatewayConfigSupport.Model;
import dev.switchboard.testkit.TestGateway;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;

/**
 * What the content-parts end-to-end tests share: a gateway config whose models reach the fake upstream in
 * all three wire formats (Gemini, OpenAI, Anthropic), and official Google GenAI SDK clients for a
 * gateway, presenting the key in each of the three ways spec 5 allows.
 */
final class GeminiItSupport {
    /** The key the {@code google} provider sends upstream ({@code x-goog-api-key}). */
    static final String GOOGLE_KEY = "upstream-google-key-0123456789";
    /** The key the {@code claude} provider sends upstream ({@code x-api-key}). */
    static final String ANTHROPIC_KEY = "sk-ant-upstream-0123456789";

    /**
     * One kind of upstream: its gateway models are {@code <prefix>-basic}, {@code <prefix>-tools} (tools and
     * reasoning) and {@code <prefix>-think} (an upstream that always reasons), and each reaches the fake as
     * the upstream model {@code <upstreamPrefix>-...}.
     */
    enum Upstream {
        GEMINI("gm", "g"), OPENAI("oa", "up"), ANTHROPIC("an", "c");

        final String prefix;
        final String upstreamPrefix;

        Upstream(String prefix, String upstreamPrefix) {
            this.prefix = prefix;
            this.upstreamPrefix = upstreamPrefix;
        }

        String model(String kind) {
            return prefix + "-" + kind;
        }

        /** The upstream model name the fake sees for {@code model(kind)}. */
        String upstreamModel(String kind) {
            return upstreamPrefix + "-" + kind + (kind.equals("think") ? "-reasoning" : "");
        }
    }

    static final String CONFIG = TestGateway.DEFAULT_HEADER
            + providers(
                    provider("google", "gemini", "${UPSTREAM}", TIMEOUTS, GOOGLE_KEY),
                    // the scripted answers of some tests are whole JSON bodies: a Gemini provider that does not stream
                    provider("google-whole", "gemini", "${UPSTREAM}", TIMEOUTS, GOOGLE_KEY) + providerLine("streaming: false"),
                    openAiProvider("fake", ItSupport.UPSTREAM_KEY),
                    anthropicProvider("claude", ANTHROPIC_KEY))
            // plans come before models: tests append models to this text
            + """
            plans:
              enterprise: {}
              basic: {}
            """
            + models(
                    model("gm-basic").aliases("gm-old").with("display_name: Gemini via the fake")
                            .pricing("{input: 1, output: 2}").route("google/g-basic"),
                    withTools("gm-tools").route("google/g-tools"),
                    withTools("gm-think").route("google/g-think-reasoning"),
                    withTools("gm-strict").route("google/g-tools-strictsig"),
                    model("oa-basic").pricing("{input: 1, output: 2}").route("fake/up-basic"),
                    withTools("oa-tools").route("fake/up-tools"),
                    withTools("oa-think").route("fake/up-think-reasoning"),
                    model("an-basic").pricing("{input: 1, output: 2}").route("claude/c-basic"),
                    withTools("an-tools").route("claude/c-tools"),
                    withTools("an-think").route("claude/c-think-reasoning"),
                    withTools("gm-idless").route("google-whole/g-idless"),
                    model("vendor/gm-slash").route("google/g-slash"),
                    model("gm-failover").route("google/g-first-fail503", "fake/up-rescue"),
                    model("gm-down").route("google/g-down-fail503"),
                    model("gm-midfail").route("google/g-cut-midfail"),
                    model("gm-plan").with("plans: [enterprise]", "payg: false").route("google/g-plan"));

    /** A model with tools and hybrid reasoning, as every format's tool and thinking tests use. */
    private static Model withTools(String name) {
        return model(name).supports("tools", "reasoning").with("reasoning: {family: hybrid}").pricing("{input: 1, output: 2}");
    }

    /** Where the SDK puts the caller's key. */
    enum Auth {
        /** {@code x-goog-api-key}, what the SDK does by itself. */
        HEADER,
        /** {@code ?key=} on the URL. */
        QUERY,
        /** {@code Authorization: Bearer}. */
        BEARER
    }

    private GeminiItSupport() {
    }

    /** The gateway on {@code config} (this {@link #CONFIG} or more), the fake accepting its three providers' keys. */
    static <C> SdkGateway<C> gateway(String config, Function<TestGateway, C> connect) {
        return new SdkGateway<>(config, connect, GOOGLE_KEY, ItSupport.UPSTREAM_KEY, ANTHROPIC_KEY);
    }

    /** A GenAI SDK client for {@code gateway} with the test user's key in the SDK's own header; no SDK retries. */
    static Client client(TestGateway gateway) {
        return client(gateway, gateway.apiKey(), Auth.HEADER, "v1beta");
    }

    /**
     * A GenAI SDK client for {@code gateway} ({@code apiVersion} {@code v1beta} or {@code v1}). For
     * {@link Auth#QUERY} and {@link Auth#BEARER} an interceptor moves the key the SDK put in
     * {@code x-goog-api-key} to where the caller of a plain HTTP client would put it.
     */
    static Client client(TestGateway gateway, String apiKey, Auth auth, String apiVersion) {
        OkHttpClient http = new OkHttpClient.Builder().addInterceptor(chain -> {
            Request request = chain.request();
            String key = request.header("x-goog-api-key");
            if (auth == Auth.HEADER || key == null) {
                return chain.proceed(request);
            }
            Request.Builder moved = request.newBuilder().removeHeader("x-goog-api-key");
            if (auth == Auth.QUERY) {
                HttpUrl url = request.url().newBuilder().addQueryParameter("key", key).build();
                moved.url(url);
            } else {
                moved.header("Authorization", "Bearer " + key);
            }
            return chain.proceed(moved.build());
        }).build();
        return Client.builder()
                .apiKey(apiKey)
                .httpOptions(HttpOptions.builder()
                        .baseUrl(gateway.baseUrl())
                        .apiVersion(apiVersion)
                        .timeout(15_000)
                        // No retries: every failure is the gateway's. No retryable codes either: google-genai
                        // 1.70.0's RetryInterceptor sleeps its back-off even after the last attempt.
                        .retryOptions(HttpRetryOptions.builder().attempts(1).httpStatusCodes(List.of()).build())
                        .build())
                .clientOptions(ClientOptions.builder().customHttpClient(http).build())
                .build();
    }

    /** The weather tool in Google's OpenAPI-style schema, as SDK users usually declare it. */
    static Tool weatherTool() {
        return Tool.builder().functionDeclarations(List.of(FunctionDeclaration.builder()
                .name("get_weather")
                .description("Looks up the weather of a city")
                .parameters(Schema.builder()
                        .type(Type.Known.OBJECT)
                        .properties(Map.of("city", Schema.builder().type(Type.Known.STRING).description("City name").build()))
                        .required(List.of("city"))
                        .build())
                .build())).build();
    }

    /** A config offering the weather tool, optionally asking for the model's thoughts. */
    static GenerateContentConfig withWeather(boolean thoughts) {
        GenerateContentConfig.Builder b = GenerateContentConfig.builder().tools(weatherTool());
        if (thoughts) {
            b.thinkingConfig(ThinkingConfig.builder().includeThoughts(true).build());
        }
        return b.build();
    }

    static Content user(String text) {
        return Content.builder().role("user").parts(List.of(Part.fromText(text))).build();
    }

    /** The single request the fake received for {@code upstreamModel}. */
    static RecordedRequest onlyRequest(TestGateway gateway, String upstreamModel) {
        List<RecordedRequest> received = gateway.upstream().received(upstreamModel);
        if (received.size() != 1) {
            throw new AssertionError("expected one request for " + upstreamModel + ", got " + gateway.upstream().received());
        }
        return received.getFirst();
    }
}
