package dev.switchboard.testkit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.http.HttpResponseFor;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.fasterxml.jackson.databind.JsonNode;
import com.google.genai.Client;
import com.google.genai.errors.ClientException;
import com.google.genai.types.GenerateContentResponse;
import com.google.genai.types.HttpOptions;
import com.google.genai.types.HttpRetryOptions;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.Headers;
import com.openai.errors.RateLimitException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.responses.ResponseCreateParams;
import dev.switchboard.engine.pipeline.Admission;
import dev.switchboard.model.GatewayException;
import dev.switchboard.server.GatewayApp;
import dev.switchboard.testkit.ShiftedClock;
import dev.switchboard.testkit.TestGateway;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Key limits as the official SDKs meet them, in each client format: at rpm 5 the sixth request in the window is
 * a 429 {@code rate_limit_error} naming the key's rpm, with {@code Retry-After} and the rate-limit headers, and the
 * SDK's own retry gets through once the window has room (the gateway's clock is moved to just before that, so the
 * test waits seconds, not a minute); a daily token cap is reached and the next request is a 429 naming it (in each
 * format); the admin API sets, changes and shows every limit.
 */
class LimitsSdkIT {
    private static final String CONFIG = ItSupport.oneModelConfig("lim-chat", "{input: 1, output: 2}", "");

    private static final ShiftedClock CLOCK = new ShiftedClock();
    /** Requests the limits refused (429), counted at the admission port. */
    private static final AtomicInteger REFUSED = new AtomicInteger();
    private static TestGateway gateway;

    @BeforeAll
    static void start() {
        gateway = TestGateway.start(CONFIG, new GatewayApp.PortDecorators(admission -> counting(admission), s -> s), CLOCK);
        gateway.upstream().requireKey(ItSupport.UPSTREAM_KEY);
    }

    private static Admission counting(Admission admission) {
        return request -> {
            try {
                return admission.admit(request);
            } catch (GatewayException e) {
                if (e.error().status() == 429) {
                    REFUSED.incrementAndGet();
                }
                throw e;
            }
        };
    }

    /**
     * Moves the clock to 2 s before {@code retryAfter} (seconds) runs out and runs {@code answeredWithRetries}, an SDK
     * call that retries 429s and checks its answer: how many of its tries the limits refused on the way.
     */
    private static int refusedOnTheWayShortlyBefore(long retryAfter, Runnable answeredWithRetries) {
        CLOCK.shift(Duration.ofSeconds(retryAfter - 2));
        int refusedBefore = REFUSED.get();
        answeredWithRetries.run();
        return REFUSED.get() - refusedBefore;
    }

    @BeforeEach
    void forgetUpstreamRequests() {
        gateway.upstream().reset();
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }


    private static OpenAIClient openAi(String key, int retries) {
        return OpenAIOkHttpClient.builder().baseUrl(gateway.openAiBaseUrl()).apiKey(key).maxRetries(retries)
                .timeout(Duration.ofSeconds(30)).build();
    }

    private static ChatCompletionCreateParams ask() {
        return ChatCompletionCreateParams.builder().model("lim-chat").addUserMessage("Say hi.").maxCompletionTokens(50).build();
    }

    @Test
    void openAiSdkSixthRequestAtRpmFiveIs429WithRetryAfterAndTheSdksRetryGetsThrough() {
        String key = ItSupport.keyWith(gateway, "\"rpm\": 5");
        OpenAIClient once = openAi(key, 0);
        for (int i = 0; i < 5; i++) {
            var raw = once.chat().completions().withRawResponse().create(ask());
            assertThat(raw.statusCode()).isEqualTo(200);
            Headers h = raw.headers();
            assertThat(h.values("x-ratelimit-limit-requests")).containsExactly("5");
            assertThat(h.values("x-ratelimit-remaining-requests")).containsExactly(Integer.toString(4 - i));
            assertThat(h.values("x-ratelimit-reset-requests").getFirst()).matches("\\d+(\\.\\d+)?s|\\d+m\\d+(\\.\\d+)?s");
            assertThat(h.values("anthropic-ratelimit-requests-limit")).isEmpty();
            raw.parse();
        }

        RateLimitException e = assertThrows(RateLimitException.class, () -> once.chat().completions().create(ask()));
        assertThat(e.statusCode()).isEqualTo(429);
        assertThat(e.getMessage()).contains("the key's rpm (5 requests per minute)");
        long retryAfter = Long.parseLong(e.headers().values("retry-after").getFirst());
        assertThat(retryAfter).isBetween(55L, 60L);
        assertThat(e.headers().values("x-ratelimit-remaining-requests")).containsExactly("0");
        assertThat(gateway.upstream().received()).hasSize(5);

        // two seconds before the window has room again: the SDK's own retry, after Retry-After, gets through
        int refused = refusedOnTheWayShortlyBefore(retryAfter,
                () -> assertThat(openAi(key, 2).chat().completions().create(ask()).choices()).isNotEmpty());
        assertThat(refused).as("the SDK's first try was refused, its retry admitted").isEqualTo(1);
        assertThat(gateway.upstream().received()).hasSize(6);
    }

    private static AnthropicClient anthropic(String key, int retries) {
        return AnthropicOkHttpClient.builder().baseUrl(gateway.baseUrl()).apiKey(key).maxRetries(retries)
                .timeout(Duration.ofSeconds(30)).build();
    }

    private static MessageCreateParams askClaude() {
        return MessageCreateParams.builder().model("lim-chat").maxTokens(50).addUserMessage("Say hi.").build();
    }

    @Test
    void anthropicSdkSixthRequestAtRpmFiveIs429WithItsHeadersAndTheSdksRetryGetsThrough() {
        String key = ItSupport.keyWith(gateway, "\"rpm\": 5");
        AnthropicClient once = anthropic(key, 0);
        for (int i = 0; i < 5; i++) {
            HttpResponseFor<Message> raw = once.messages().withRawResponse().create(askClaude());
            assertThat(raw.headers().values("anthropic-ratelimit-requests-limit")).containsExactly("5");
            assertThat(raw.headers().values("anthropic-ratelimit-requests-remaining")).containsExactly(Integer.toString(4 - i));
            assertThat(raw.headers().values("anthropic-ratelimit-requests-reset").getFirst())
                    .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
            assertThat(raw.headers().values("x-ratelimit-limit-requests")).containsExactly("5");
            raw.parse();
        }

        com.anthropic.errors.RateLimitException e = assertThrows(com.anthropic.errors.RateLimitException.class,
                () -> once.messages().create(askClaude()));
        assertThat(e.statusCode()).isEqualTo(429);
        assertThat(e.getMessage()).contains("rate_limit_error", "the key's rpm (5 requests per minute)");
        long retryAfter = Long.parseLong(e.headers().values("retry-after").getFirst());
        assertThat(retryAfter).isBetween(55L, 60L);
        assertThat(e.headers().values("anthropic-ratelimit-requests-remaining")).containsExactly("0");

        int refused = refusedOnTheWayShortlyBefore(retryAfter,
                () -> assertThat(anthropic(key, 2).messages().create(askClaude()).content()).isNotEmpty());
        assertThat(refused).isEqualTo(1);
    }

    private static Client gemini(String key, int attempts) {
        return Client.builder().apiKey(key).httpOptions(HttpOptions.builder().baseUrl(gateway.baseUrl())
                .apiVersion("v1beta").timeout(30_000)
                .retryOptions(HttpRetryOptions.builder().attempts(attempts).httpStatusCodes(List.of(429))
                        .initialDelay(1.0).maxDelay(2.0).expBase(1.0).jitter(0.0).build())
                .build()).build();
    }

    @Test
    void geminiSdkSixthRequestAtRpmFiveIsResourceExhaustedAndTheSdksRetryGetsThrough() {
        String key = ItSupport.keyWith(gateway, "\"rpm\": 5");
        Client once = gemini(key, 1);
        for (int i = 0; i < 5; i++) {
            GenerateContentResponse r = once.models.generateContent("lim-chat", "Say hi.", null);
            assertThat(r.text()).isNotEmpty();
        }
        ClientException e = assertThrows(ClientException.class,
                () -> once.models.generateContent("lim-chat", "Say hi.", null));
        assertThat(e.code()).isEqualTo(429);
        assertThat(e.status()).isEqualTo("RESOURCE_EXHAUSTED");
        assertThat(e.getMessage()).contains("the key's rpm (5 requests per minute)");
        // the SDK hides headers; the same refusal seen raw carries them
        HttpResponse<String> raw = ItSupport.post(gateway, "/v1beta/models/lim-chat:generateContent",
                Map.of("x-goog-api-key", key, "content-type", "application/json"),
                "{\"contents\": [{\"role\": \"user\", \"parts\": [{\"text\": \"hi\"}]}]}");
        assertThat(raw.statusCode()).isEqualTo(429);
        long retryAfter = Long.parseLong(raw.headers().firstValue("retry-after").orElseThrow());
        assertThat(raw.headers().firstValue("x-ratelimit-remaining-requests")).contains("0");

        int refused = refusedOnTheWayShortlyBefore(retryAfter,
                () -> assertThat(gemini(key, 5).models.generateContent("lim-chat", "Say hi.", null).text()).isNotEmpty());
        assertThat(refused).isPositive();
    }

    private static ResponseCreateParams askResponses() {
        return ResponseCreateParams.builder().model("lim-chat").input("Say hi.").maxOutputTokens(50L).store(false).build();
    }

    @Test
    void responsesThroughTheOpenAiSdkSixthRequestAtRpmFiveIs429AndTheSdksRetryGetsThrough() {
        String key = ItSupport.keyWith(gateway, "\"rpm\": 5");
        OpenAIClient once = openAi(key, 0);
        for (int i = 0; i < 5; i++) {
            var raw = once.responses().withRawResponse().create(askResponses());
            assertThat(raw.headers().values("x-ratelimit-remaining-requests")).containsExactly(Integer.toString(4 - i));
            raw.parse();
        }
        RateLimitException e = assertThrows(RateLimitException.class, () -> once.responses().create(askResponses()));
        assertThat(e.getMessage()).contains("the key's rpm (5 requests per minute)");
        long retryAfter = Long.parseLong(e.headers().values("retry-after").getFirst());
        assertThat(e.headers().values("x-ratelimit-limit-requests")).containsExactly("5");

        int refused = refusedOnTheWayShortlyBefore(retryAfter,
                () -> assertThat(openAi(key, 2).responses().create(askResponses()).output()).isNotEmpty());
        assertThat(refused).isEqualTo(1);
    }

    @Test
    void aDailyTokenCapIsReachedAndTheNextRequestIs429NamingIt() {
        String key = ItSupport.keyWith(gateway, "\"daily_tokens\": 400");
        OpenAIClient client = openAi(key, 0);
        long used = 0;
        int answered = 0;
        RateLimitException refused = null;
        while (refused == null && answered < 50) {
            try {
                ChatCompletion c = client.chat().completions().create(ask());
                used += c.usage().orElseThrow().totalTokens();
                answered++;
            } catch (RateLimitException e) {
                refused = e;
            }
        }
        assertThat(refused).as("the cap was reached after %d answers", answered).isNotNull();
        assertThat(refused.getMessage()).contains("the key's daily token cap (400 tokens per UTC day)", "Lower max_tokens");
        assertThat(refused.headers().values("x-ratelimit-limit-tokens")).containsExactly("400");
        assertThat(Long.parseLong(refused.headers().values("x-ratelimit-remaining-tokens").getFirst()))
                .isEqualTo(400 - used);
        assertThat(used).isLessThanOrEqualTo(400);
        assertThat(refused.headers().values("retry-after")).isNotEmpty();
    }

    /** Sends {@code request} until it throws; the throwable, after at least one answer. */
    private static Exception untilRefused(java.util.concurrent.Callable<Object> request) throws Exception {
        for (int answered = 0; answered < 50; answered++) {
            try {
                request.call();
            } catch (Exception e) {
                assertThat(answered).as("answers before the cap was reached").isPositive();
                return e;
            }
        }
        throw new AssertionError("50 answers under a daily cap of 400 tokens");
    }

    @Test
    void messagesThroughTheAnthropicSdkMeetADailyTokenCapAsA429NamingIt() throws Exception {
        AnthropicClient client = anthropic(ItSupport.keyWith(gateway, "\"daily_tokens\": 400"), 0);
        Exception e = untilRefused(() -> client.messages().create(askClaude()));
        assertThat(e).isInstanceOfSatisfying(com.anthropic.errors.RateLimitException.class, r -> {
            assertThat(r.getMessage()).contains("rate_limit_error", "the key's daily token cap (400 tokens per UTC day)");
            assertThat(r.headers().values("anthropic-ratelimit-tokens-limit")).containsExactly("400");
            assertThat(r.headers().values("retry-after")).isNotEmpty();
        });
    }

    @Test
    void generateContentThroughTheGoogleSdkMeetsADailyTokenCapAsResourceExhaustedNamingIt() throws Exception {
        Client client = gemini(ItSupport.keyWith(gateway, "\"daily_tokens\": 400"), 1);
        com.google.genai.types.GenerateContentConfig config = com.google.genai.types.GenerateContentConfig.builder()
                .maxOutputTokens(50).build();
        Exception e = untilRefused(() -> client.models.generateContent("lim-chat", "Say hi.", config));
        assertThat(e).isInstanceOfSatisfying(ClientException.class, r -> {
            assertThat(r.code()).isEqualTo(429);
            assertThat(r.status()).isEqualTo("RESOURCE_EXHAUSTED");
            assertThat(r.getMessage()).contains("the key's daily token cap (400 tokens per UTC day)");
        });
    }

    @Test
    void responsesThroughTheOpenAiSdkMeetADailyTokenCapAsA429NamingIt() throws Exception {
        OpenAIClient client = openAi(ItSupport.keyWith(gateway, "\"daily_tokens\": 400"), 0);
        Exception e = untilRefused(() -> client.responses().create(askResponses()));
        assertThat(e).isInstanceOfSatisfying(RateLimitException.class, r -> {
            assertThat(r.getMessage()).contains("the key's daily token cap (400 tokens per UTC day)");
            assertThat(r.headers().values("x-ratelimit-limit-tokens")).containsExactly("400");
        });
    }

    @Test
    void theAdminApiSetsChangesAndShowsEveryLimit() {
        HttpResponse<String> created = ItSupport.post(gateway, "/admin/v1/users/" + gateway.userId() + "/keys",
                ItSupport.bearer(gateway.adminKey()), """
                        {"name": "lim", "rpm": 60, "tpm": 10000, "daily_tokens": 200000, "max_parallel": 4,
                         "budget_usd": "12.5", "budget_period": "monthly"}""");
        assertThat(created.statusCode()).isEqualTo(201);
        JsonNode k = ItSupport.json(created.body());
        assertThat(k.path("rpm").asLong()).isEqualTo(60);
        assertThat(k.path("tpm").asLong()).isEqualTo(10000);
        assertThat(k.path("daily_tokens").asLong()).isEqualTo(200000);
        assertThat(k.path("max_parallel").asLong()).isEqualTo(4);
        assertThat(k.path("budget_usd").asText()).isEqualTo("12.5");
        assertThat(k.path("budget_period").asText()).isEqualTo("monthly");

        HttpResponse<String> patched = ItSupport.patch(gateway, "/admin/v1/keys/" + k.path("id").asText(),
                ItSupport.bearer(gateway.adminKey()), "{\"rpm\": 5, \"tpm\": null, \"budget_period\": \"weekly\"}");
        assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);
        JsonNode p = ItSupport.json(patched.body());
        assertThat(p.path("rpm").asLong()).isEqualTo(5);
        assertThat(p.path("tpm").isNull()).isTrue();
        assertThat(p.path("budget_period").asText()).isEqualTo("weekly");
        assertThat(p.path("name").asText()).isEqualTo("lim");

        JsonNode listed = ItSupport.json(ItSupport.get(gateway, "/admin/v1/users/" + gateway.userId() + "/keys",
                ItSupport.bearer(gateway.adminKey())).body());
        assertThat(listed.path("keys").findValues("id")).extracting(JsonNode::asText).contains(k.path("id").asText());
        for (JsonNode listedKey : listed.path("keys")) {
            if (listedKey.path("id").asText().equals(k.path("id").asText())) {
                assertThat(listedKey).isEqualTo(p);
            }
        }

        HttpResponse<String> bad = ItSupport.patch(gateway, "/admin/v1/keys/" + k.path("id").asText(),
                ItSupport.bearer(gateway.adminKey()), "{\"max_parallel\": 0}");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(ItSupport.json(bad.body()).path("error").path("param").asText()).isEqualTo("max_parallel");
        HttpResponse<String> unknown = ItSupport.patch(gateway, "/admin/v1/keys/key_nope",
                ItSupport.bearer(gateway.adminKey()), "{\"rpm\": 1}");
        assertThat(unknown.statusCode()).isEqualTo(404);
        HttpResponse<String> typo = ItSupport.patch(gateway, "/admin/v1/keys/" + k.path("id").asText(),
                ItSupport.bearer(gateway.adminKey()), "{\"rpn\": 1}");
        assertThat(typo.statusCode()).isEqualTo(400);
        assertThat(ItSupport.json(typo.body()).path("error").path("param").asText()).isEqualTo("rpn");
    }

    @Test
    void aKeyWithoutLimitsGetsNoRateLimitHeaders() throws Exception {
        var raw = openAi(gateway.apiKey(), 0).chat().completions().withRawResponse().create(ask());
        assertThat(raw.headers().values("x-ratelimit-limit-requests")).isEmpty();
        raw.parse();
    }
}
