package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;

/**
 * One provider's HTTP API as the fake speaks it. The {@link Dispatcher} does what all providers share
 * (recording, key checks, scripted responders, the faults of {@link Faults}); a dialect owns only its
 * wire shapes: which paths it serves, where its clients put the key, its error envelope, and its answers.
 *
 * <p>OpenAI chat completions is {@link FakeOpenAiDialect}, Anthropic ({@code POST /v1/messages}, key in
 * {@code x-api-key}) {@link FakeAnthropicDialect}, Gemini ({@code POST /v1beta/models/{m}:generateContent|
 * :streamGenerateContent}, key in {@code x-goog-api-key} or {@code ?key=}) {@link FakeGeminiDialect}, and
 * OpenAI's Responses API ({@code POST /v1/responses}) {@link FakeResponsesDialect}; each turns its request
 * into a {@link Prompt} and renders the shared {@link AnswerGenerator}'s {@link Reply}.
 */
interface FakeDialect {

    /** Whether this dialect answers the request's method and path. */
    boolean serves(RecordedRequest request);

    /** The credential as this provider's clients send it; empty when the request carries none. */
    Optional<String> apiKey(RecordedRequest request);

    /** This provider's error body for a status. */
    JsonNode errorEnvelope(int status, String message);

    /**
     * Answers a request that passed the key check and the shared faults: validates it, then renders the
     * scripted answer, applying the faults whose shape depends on the wire ({@code -midfail}, {@code -empty}).
     */
    void serve(RecordedRequest request, Scenario scenario, RawExchange exchange) throws IOException;

    /** Sends {@link #errorEnvelope}; a 429 also says {@code retry-after: 1}, as rate limiters do. */
    default void sendError(RawExchange exchange, int status, String message) throws IOException {
        Map<String, String> headers = status == 429 ? Map.of("retry-after", "1") : Map.of();
        exchange.respondJson(status, headers, errorEnvelope(status, message));
    }
}
