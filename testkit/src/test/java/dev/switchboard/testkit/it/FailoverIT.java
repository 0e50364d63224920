package dev.switchboard.testkit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.errors.BadRequestException;
import com.openai.errors.InternalServerException;
import com.openai.errors.RateLimitException;
import com.openai.errors.SseException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.switchboard.testkit.FakeUpstream;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Failover as a caller sees it (docs/contracts.md §1, §2): pools tried in order, timeouts, caller fallbacks, the
 * final error when everything failed, failures before and after the first stream event, key rotation.
 */
class FailoverIT {
    @RegisterExtension
    static final SdkGateway<OpenAIClient> GATEWAY = new SdkGateway<>(ItSupport.CONFIG, ItSupport::client,
            ItSupport.UPSTREAM_KEY, ItSupport.ROTATING_KEY_1, ItSupport.ROTATING_KEY_2);

    @BeforeAll
    static void rotatingKeyIsRateLimitedAndTheClientWarm() {
        GATEWAY.gateway().upstream().keyStatus(ItSupport.ROTATING_KEY_1, 429);
        // the SDK's first stream loads many classes; timing tests must measure the gateway, not that
        streamedText(ItSupport.ask("chat-basic", "warm up"), new ArrayList<>());
    }

    private static String streamedText(ChatCompletionCreateParams params, List<ChatCompletionChunk> into) {
        StringBuilder text = new StringBuilder();
        try (StreamResponse<ChatCompletionChunk> s = GATEWAY.client().chat().completions().createStreaming(params)) {
            s.stream().forEach(c -> {
                into.add(c);
                c.choices().forEach(ch -> ch.delta().content().ifPresent(text::append));
            });
        }
        return text.toString();
    }

    private static ChatCompletionCreateParams withFallbacks(String model, String... fallbacks) {
        return ItSupport.ask(model, "hello").toBuilder()
                .putAdditionalBodyProperty("models", JsonValue.from(List.of(fallbacks)))
                .build();
    }

    @Test
    void failoverTriesThePoolInOrderAndAnswersFromTheThirdTarget() {
        ChatCompletion completion = GATEWAY.client().chat().completions().create(ItSupport.ask("chat-failover", "hello"));

        assertThat(completion.model()).isEqualTo("chat-failover");
        assertThat(completion.choices().getFirst().message().content().orElseThrow()).startsWith("Hello from up-third!");
        assertThat(ItSupport.upstreamModels(GATEWAY.gateway())).containsExactly("up-first-fail500", "up-second-reset", "up-third");
    }

    @Test
    void streamedFailoverBeforeTheFirstEventIsInvisible() {
        List<ChatCompletionChunk> chunks = new ArrayList<>();
        String text = streamedText(ItSupport.ask("chat-failover", "hello"), chunks);

        assertThat(text).isEqualTo("Hello from up-third! You said: hello");
        assertThat(chunks.getFirst().choices().getFirst().delta().role()).isPresent();
        assertThat(chunks.getLast().usage()).isPresent();
        assertThat(ItSupport.upstreamModels(GATEWAY.gateway())).containsExactly("up-first-fail500", "up-second-reset", "up-third");
    }

    @Test
    void firstByteTimeoutOnAHangingUpstreamFallsOverQuickly() {
        long start = System.nanoTime();
        String text = streamedText(ItSupport.ask("chat-hang", "hello"), new ArrayList<>());
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(text).startsWith("Hello from up-rescue-one!");
        assertThat(ItSupport.upstreamModels(GATEWAY.gateway())).containsExactly("up-stuck-hang", "up-rescue-one");
        // first_byte (500ms) gave up on the hang; without it only the attempt's total (10s) would have
        assertThat(took).as("left the hanging provider long before its total deadline").isLessThan(Duration.ofSeconds(8));
    }

    @Test
    void firstByteTimeoutOnASlowUpstreamFallsOverBeforeItWouldHaveAnswered() {
        String text = streamedText(ItSupport.ask("chat-slow", "hello"), new ArrayList<>());

        // the slow upstream answers normally after SLOW_FIRST_BYTE: the next target was asked (and answered)
        // only because first_byte (500ms) gave up on it first
        assertThat(text).startsWith("Hello from up-rescue-two!");
        assertThat(ItSupport.upstreamModels(GATEWAY.gateway())).containsExactly("up-late-slowfirst", "up-rescue-two");
    }

    @Test
    void callerFallbackAnswersWhenThePrimaryPoolFailsAndUnknownIdsAreSkipped() {
        ChatCompletion completion = GATEWAY.client().chat().completions()
                .create(withFallbacks("chat-down", "no-such-model", "chat-backup"));

        assertThat(completion.model()).isEqualTo("chat-backup");
        assertThat(completion.choices().getFirst().message().content().orElseThrow()).startsWith("Hello from up-backup!");
        assertThat(ItSupport.upstreamModels(GATEWAY.gateway())).containsExactly("up-down-fail503", "up-broken-fail502", "up-backup");
    }

    @Test
    void streamedCallerFallbackNamesTheFallbackInEveryChunk() {
        List<ChatCompletionChunk> chunks = new ArrayList<>();
        String text = streamedText(withFallbacks("chat-down", "no-such-model", "chat-backup"), chunks);

        assertThat(text).startsWith("Hello from up-backup!");
        assertThat(chunks).allSatisfy(c -> assertThat(c.model()).isEqualTo("chat-backup"));
        assertThat(ItSupport.upstreamModels(GATEWAY.gateway())).containsExactly("up-down-fail503", "up-broken-fail502", "up-backup");
    }

    @Test
    void everythingFailedIs503ApiErrorNamingEachAttempt() {
        InternalServerException e = assertThrows(InternalServerException.class,
                () -> GATEWAY.client().chat().completions().create(ItSupport.ask("chat-down", "hello")));

        assertThat(e.statusCode()).isEqualTo(503);
        assertThat(e.type()).contains("api_error");
        assertThat(e.code()).contains("503");
        JsonNode error = ItSupport.body(e);
        String message = error.path("message").asText();
        assertThat(message).contains("fake: 503").contains("fake: 502");
        assertThat(message).doesNotContain(ItSupport.UPSTREAM_KEY).doesNotContain(GATEWAY.gateway().upstream().baseUrl());
        assertThat(ItSupport.upstreamModels(GATEWAY.gateway())).containsExactly("up-down-fail503", "up-broken-fail502");
    }

    @Test
    void everythingFailedBeforeTheFirstEventIsAPlain503ForAStreamToo() {
        InternalServerException e = assertThrows(InternalServerException.class, () -> {
            try (StreamResponse<ChatCompletionChunk> s = GATEWAY.client().chat().completions()
                    .createStreaming(ItSupport.ask("chat-down", "hello"))) {
                s.stream().forEach(c -> { });
            }
        });

        assertThat(e.statusCode()).isEqualTo(503);
        assertThat(e.type()).contains("api_error");
        assertThat(ItSupport.body(e).path("message").asText()).contains("fake: 503").contains("fake: 502");
    }

    @Test
    void connectionAbandonedByATimeoutIsNeverReused() throws InterruptedException {
        streamedText(ItSupport.ask("chat-slow", "hello"), new ArrayList<>());
        // by now the slow upstream has written its late answer onto the connection the gateway gave up on
        Thread.sleep(FakeUpstream.SLOW_FIRST_BYTE.toMillis() + 200);

        for (int i = 0; i < 4; i++) {
            ChatCompletion plain = GATEWAY.client().chat().completions().create(ItSupport.ask("chat-basic", "plain " + i));
            assertThat(plain.choices().getFirst().message().content().orElseThrow())
                    .isEqualTo("Hello from up-basic! You said: plain " + i);
            assertThat(streamedText(ItSupport.ask("chat-basic", "streamed " + i), new ArrayList<>()))
                    .isEqualTo("Hello from up-basic! You said: streamed " + i);
        }
    }

    @Test
    void streamThatStallsAfterItsFirstEventEndsWithAnInBandErrorAfterTheIdleTimeout() {
        GATEWAY.gateway().upstream().script("up-stall", (request, exchange) -> {
            var sse = exchange.openSse(200);
            sse.data("{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"up-stall\","
                    + "\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Stalling\"},"
                    + "\"finish_reason\":null}]}");
            exchange.hangUntilClosed();
        });
        StringBuilder text = new StringBuilder();
        long start = System.nanoTime();

        SseException e = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> assertThrows(SseException.class, () -> {
            try (StreamResponse<ChatCompletionChunk> s = GATEWAY.client().chat().completions()
                    .createStreaming(ItSupport.ask("chat-stall", "hello"))) {
                s.stream().forEach(c -> c.choices().forEach(ch -> ch.delta().content().ifPresent(text::append)));
            }
        }));
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(text.toString()).isEqualTo("Stalling");
        assertThat(ItSupport.body(e).path("code").asText()).isEqualTo("503");
        assertThat(took).as("idle (1s) ended it, not the attempt's total (10s)").isLessThan(Duration.ofSeconds(8));
        assertThat(ItSupport.upstreamModels(GATEWAY.gateway())).containsExactly("up-stall");
    }

    @Test
    void nonRetryableUpstream4xxEndsTheFailoverAndReachesTheCaller() {
        BadRequestException e = assertThrows(BadRequestException.class,
                () -> GATEWAY.client().chat().completions().create(ItSupport.ask("chat-rejects", "hello")));

        assertThat(e.statusCode()).isEqualTo(400);
        assertThat(e.code()).contains("400");
        assertThat(ItSupport.upstreamModels(GATEWAY.gateway())).containsExactly("up-picky-fail400");
    }

    @Test
    void providerRefusingTheGatewaysOwnKeyIsNeverReportedAsTheCallers401() {
        InternalServerException e = assertThrows(InternalServerException.class,
                () -> GATEWAY.client().chat().completions().create(ItSupport.ask("chat-misconfigured", "hello")));

        assertThat(e.statusCode()).isEqualTo(503);
        assertThat(ItSupport.body(e).path("message").asText()).contains("revoked: 401").contains("fake: 503")
                .doesNotContain("sk-upstream-revoked");
        assertThat(ItSupport.upstreamModels(GATEWAY.gateway())).containsExactly("up-unpaid", "up-down-fail503");
    }

    @Test
    void everyAttemptRateLimitedIs429WithTheSummary() {
        RateLimitException e = assertThrows(RateLimitException.class,
                () -> GATEWAY.client().chat().completions().create(ItSupport.ask("chat-limited", "hello")));

        assertThat(e.statusCode()).isEqualTo(429);
        assertThat(e.type()).contains("rate_limit_error");
        assertThat(e.code()).contains("429");
        String message = ItSupport.body(e).path("message").asText();
        assertThat(message).contains("fake: 429");
        assertThat(message.split("fake: 429", -1)).hasSize(3); // both attempts named
        assertThat(ItSupport.upstreamModels(GATEWAY.gateway())).containsExactly("up-busy-fail429", "up-busier-fail429");
    }

    @Test
    void failureAfterTheFirstEventIsReportedInBandAndTheSdkThrowsAfterTheContentSoFar() {
        StringBuilder text = new StringBuilder();
        SseException e = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (StreamResponse<ChatCompletionChunk> s = GATEWAY.client().chat().completions()
                    .createStreaming(ItSupport.ask("chat-midfail", "hello"))) {
                Iterator<ChatCompletionChunk> it = s.stream().iterator();
                return assertThrows(SseException.class, () -> {
                    while (it.hasNext()) {
                        it.next().choices().forEach(c -> c.delta().content().ifPresent(text::append));
                    }
                });
            }
        });

        // the fake sent the role chunk and two words before cutting the connection
        assertThat(text.toString()).isEqualTo("Hello from");
        assertThat(e.statusCode()).isEqualTo(200);
        JsonNode error = ItSupport.body(e);
        assertThat(error.path("type").asText()).isEqualTo("api_error");
        assertThat(error.path("code").asText()).isEqualTo("503");
        assertThat(error.path("message").asText()).isNotBlank();
        // after the first event there is no failover (resumption is off by default)
        assertThat(ItSupport.upstreamModels(GATEWAY.gateway())).containsExactly("up-cut-midfail");
    }

    @Test
    void failureAfterTheFirstEventEndsWithAnErrorChunkThenDone() {
        HttpResponse<String> response = ItSupport.post(GATEWAY.gateway(), "/v1/chat/completions", ItSupport.bearer(GATEWAY.gateway().apiKey()),
                "{\"model\":\"chat-midfail\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}");

        assertThat(response.statusCode()).isEqualTo(200);
        List<String> data = ItSupport.sseData(response.body());
        assertThat(data.getLast()).isEqualTo("[DONE]");
        JsonNode last = ItSupport.json(data.get(data.size() - 2));
        assertThat(last.path("error").path("type").asText()).isEqualTo("api_error");
        assertThat(last.path("error").path("code").asText()).isEqualTo("503");
        assertThat(last.path("error").has("param")).isTrue();
        assertThat(data.subList(0, data.size() - 2)).noneSatisfy(d -> assertThat(ItSupport.json(d).has("error")).isTrue());
    }

    @Test
    void plainAnswerCutMidBodyFallsOver() {
        ChatCompletion completion = GATEWAY.client().chat().completions().create(ItSupport.ask("chat-midfail", "hello"));

        assertThat(completion.choices().getFirst().message().content().orElseThrow()).startsWith("Hello from up-rescue-four!");
        assertThat(ItSupport.upstreamModels(GATEWAY.gateway())).containsExactly("up-cut-midfail", "up-rescue-four");
    }

    @Test
    void streamEndingBeforeItsFirstEventFallsOverInvisibly() {
        List<ChatCompletionChunk> chunks = new ArrayList<>();
        String text = streamedText(ItSupport.ask("chat-empty", "hello"), chunks);

        assertThat(text).isEqualTo("Hello from up-rescue-three! You said: hello");
        assertThat(chunks.getFirst().choices().getFirst().delta().role()).isPresent();
        assertThat(chunks.getLast().usage()).isPresent();
        assertThat(ItSupport.upstreamModels(GATEWAY.gateway())).containsExactly("up-void-empty", "up-rescue-three");
    }

    @Test
    void refusedKeyRotatesToTheProvidersNextKey() {
        // keys are taken round robin, so of two requests one starts with the rate-limited first key
        for (int i = 0; i < 2; i++) {
            ChatCompletion completion = GATEWAY.client().chat().completions().create(ItSupport.ask("chat-rotating", "hello " + i));
            assertThat(completion.choices().getFirst().message().content().orElseThrow()).startsWith("Hello from up-rotating!");
        }

        List<String> keys = GATEWAY.gateway().upstream().received().stream().map(ItSupport::authorization).toList();
        assertThat(keys).containsExactly(key(ItSupport.ROTATING_KEY_1), key(ItSupport.ROTATING_KEY_2), key(ItSupport.ROTATING_KEY_2));
    }

    private static String key(String k) {
        return "Bearer " + k;
    }

}
