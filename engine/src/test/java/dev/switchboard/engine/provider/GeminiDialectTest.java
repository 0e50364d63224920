package dev.switchboard.engine.provider;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.engine.catalog.Capabilities;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.Pricing;
import dev.switchboard.engine.catalog.ProviderConfig;
import dev.switchboard.engine.catalog.ProviderType;
import dev.switchboard.engine.catalog.ReasoningProfile;
import dev.switchboard.engine.catalog.ReasoningProfile.EffortAs;
import dev.switchboard.engine.catalog.ReasoningProfile.Family;
import dev.switchboard.engine.catalog.RouteTarget;
import dev.switchboard.engine.catalog.Timeouts;
import dev.switchboard.engine.upstream.HttpCall;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.Message;
import dev.switchboard.model.Reasoning;
import dev.switchboard.wire.Json;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class GeminiDialectTest {
    private final GeminiDialect dialect = new GeminiDialect();

    private static Attempt attempt(String baseUrl, String upstreamModel, Optional<EffortAs> effortAs, String key) {
        ProviderConfig provider = new ProviderConfig("google", ProviderType.GEMINI, URI.create(baseUrl), List.of("k"),
                Timeouts.DEFAULT, Map.of("x-extra", "1"));
        ModelEntry model = new ModelEntry("g", List.of(), Optional.empty(), "google", 1000, 100,
                new Capabilities(true, false, true, false, true),
                new ReasoningProfile(Family.ALWAYS, List.of(Reasoning.Effort.LOW, Reasoning.Effort.HIGH), effortAs),
                Pricing.FREE, List.of(), List.of(new RouteTarget("google", upstreamModel)));
        ChatRequest request = ChatRequest.builder("g").addMessage(Message.user("hi"))
                .reasoning(new Reasoning(Optional.of(Reasoning.Effort.HIGH), Optional.empty(), OptionalInt.empty(),
                        Reasoning.Format.SEPARATE, false, Optional.empty()))
                .build();
        return new Attempt(request, model, provider, new RouteTarget("google", upstreamModel), key);
    }

    private static JsonNode thinkingConfig(HttpCall call) {
        return Json.parse(call.body()).path("generationConfig").path("thinkingConfig");
    }

    @Test
    void plainCallGoesToGenerateContentWithTheKeyInAHeaderNeverInTheUrl() {
        HttpCall call = dialect.call(attempt("https://generativelanguage.googleapis.com", "gemini-2.5-flash",
                Optional.empty(), "AIza-provider-key"), false);

        assertThat(call.uri()).hasToString("https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent");
        assertThat(call.headers()).containsEntry("x-goog-api-key", "AIza-provider-key").containsEntry("x-extra", "1");
        assertThat(call.uri().toString()).doesNotContain("AIza");
        assertThat(call.streaming()).isFalse();
        assertThat(Json.parse(call.body()).has("model")).as("the model is in the URL, not the body").isFalse();
    }

    @Test
    void streamedCallAsksForServerSentEvents() {
        HttpCall call = dialect.call(attempt("http://127.0.0.1:9/", "gemini-3-pro-preview", Optional.empty(), "k"), true);

        assertThat(call.uri()).hasToString("http://127.0.0.1:9/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse");
        assertThat(call.streaming()).isTrue();
    }

    @Test
    void aBaseUrlThatAlreadyNamesTheApiVersionIsNotDoubled() {
        HttpCall call = dialect.call(attempt("https://proxy.example/google/v1beta", "gemini-2.5-pro", Optional.empty(), "k"), false);

        assertThat(call.uri()).hasToString("https://proxy.example/google/v1beta/models/gemini-2.5-pro:generateContent");
    }

    @Test
    void withoutAKeyNoAuthHeaderIsSent() {
        HttpCall call = dialect.call(attempt("http://127.0.0.1:9", "m", Optional.empty(), ""), false);

        assertThat(call.headers()).doesNotContainKey("x-goog-api-key");
    }

    @Test
    void theConfiguredEffortShapeWinsOverTheModelName() {
        JsonNode asBudget = thinkingConfig(dialect.call(attempt("http://h", "gemini-3-pro", Optional.of(EffortAs.BUDGET), "k"), false));
        JsonNode asLevel = thinkingConfig(dialect.call(attempt("http://h", "gemini-2.5-pro", Optional.of(EffortAs.LEVEL), "k"), false));

        assertThat(asBudget.has("thinkingBudget")).isTrue();
        assertThat(asBudget.has("thinkingLevel")).isFalse();
        assertThat(asLevel.has("thinkingLevel")).isTrue();
        assertThat(asLevel.has("thinkingBudget")).isFalse();
    }

    @Test
    void withoutConfigTheModelNameDecides() {
        assertThat(thinkingConfig(dialect.call(attempt("http://h", "gemini-2.5-flash", Optional.empty(), "k"), false))
                .has("thinkingBudget")).isTrue();
        assertThat(thinkingConfig(dialect.call(attempt("http://h", "gemini-3-flash", Optional.empty(), "k"), false))
                .path("thinkingLevel").asText()).isEqualTo("HIGH");
        assertThat(GeminiDialect.byName("models/gemini-2.0-flash")).isEqualTo(EffortAs.BUDGET);
        assertThat(GeminiDialect.byName("google/gemini-1.5-pro")).isEqualTo(EffortAs.BUDGET);
        assertThat(GeminiDialect.byName("gemini-20-ultra")).isEqualTo(EffortAs.LEVEL);
        assertThat(GeminiDialect.byName("my-tuned-model")).isEqualTo(EffortAs.LEVEL);
    }

    @Test
    void upstreamErrorsKeepGooglesMessage() {
        var error = dialect.error(429, """
                {"error":{"code":429,"message":"Quota exceeded","status":"RESOURCE_EXHAUSTED"}}""".getBytes());

        assertThat(error.status()).isEqualTo(429);
        assertThat(error.message()).isEqualTo("Quota exceeded");
        assertThat(error.retryable()).isTrue();
    }
}
