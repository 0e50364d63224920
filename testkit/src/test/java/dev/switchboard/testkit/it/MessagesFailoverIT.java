package dev.switchboard.testkit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.anthropic.client.AnthropicClient;
import com.anthropic.core.JsonValue;
import com.anthropic.errors.BadRequestException;
import com.anthropic.errors.ServiceUnavailableException;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.testkit.RecordedRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Failover, caller fallbacks, in-band stream errors and assistant prefill through {@code POST /v1/messages},
 * judged by the official Anthropic Java SDK (and raw HTTP where the SDK hides the frames).
 */
class MessagesFailoverIT {
    @RegisterExtension
    static final SdkGateway<AnthropicClient> GATEWAY = MessagesItSupport.anthropicGateway();

    private static Message streamed(MessageCreateParams params) {
        return MessagesItSupport.accumulate(MessagesItSupport.stream(GATEWAY.client(), params));
    }

    private static MessageCreateParams prefilled(String model) {
        return MessageCreateParams.builder().model(model).maxTokens(200)
                .addUserMessage("Write a haiku about autumn")
                .addAssistantMessage("Autumn leaves")
                .build();
    }

    @Test
    void anOverloadedAnthropicTargetFailsOverToTheNextPlainAndStreamed() {
        Message plain = GATEWAY.client().messages().create(MessagesItSupport.ask("claude-failover", "hi"));
        Message stream = streamed(MessagesItSupport.ask("claude-failover", "hi"));

        assertThat(plain.model().asString()).isEqualTo("claude-failover");
        assertThat(MessagesItSupport.text(plain)).isEqualTo("Hello from up-claude-rescue! You said: hi");
        assertThat(MessagesItSupport.text(stream)).isEqualTo(MessagesItSupport.text(plain));
        assertThat(ItSupport.upstreamModels(GATEWAY.gateway()))
                .containsExactly("up-busy-fail529", "up-claude-rescue", "up-busy-fail529", "up-claude-rescue");
    }

    @Test
    void aPoolMixingFormatsFailsOverFromAnthropicToOpenAi() {
        Message message = streamed(MessagesItSupport.ask("claude-cross", "hi"));

        assertThat(message.model().asString()).isEqualTo("claude-cross");
        assertThat(MessagesItSupport.text(message)).isEqualTo("Hello from up-gpt-rescue! You said: hi");
        assertThat(ItSupport.upstreamModels(GATEWAY.gateway())).containsExactly("up-down-fail503", "up-gpt-rescue");
    }

    @Test
    void callerFallbacksAnswerWhenThePrimaryPoolIsExhaustedAndTheResponseNamesTheFallback() {
        MessageCreateParams params = MessagesItSupport.ask("claude-dead", "hi").toBuilder()
                .putAdditionalBodyProperty("fallbacks", JsonValue.from(List.of(Map.of("model", "gpt-backup"))))
                .build();

        Message plain = GATEWAY.client().messages().create(params);
        Message stream = streamed(params);

        assertThat(plain.model().asString()).isEqualTo("gpt-backup");
        assertThat(stream.model().asString()).isEqualTo("gpt-backup");
        assertThat(MessagesItSupport.text(plain)).isEqualTo("Hello from up-backup! You said: hi");
        assertThat(ItSupport.upstreamModels(GATEWAY.gateway())).containsExactly("up-dead-fail529", "up-gone-fail503", "up-backup",
                "up-dead-fail529", "up-gone-fail503", "up-backup");
    }

    @Test
    void whenEverythingFailsTheSdkGetsA503NamingTheAttempts() {
        ServiceUnavailableException e = assertThrows(ServiceUnavailableException.class,
                () -> GATEWAY.client().messages().create(MessagesItSupport.ask("claude-dead", "hi")));

        JsonNode body = e.body().convert(JsonNode.class);
        assertThat(body.path("type").asText()).isEqualTo("error");
        assertThat(body.path("error").path("type").asText()).isEqualTo("api_error");
        assertThat(body.path("error").path("code").asText()).isEqualTo("503");
        assertThat(body.path("error").path("message").asText()).contains("claude").contains("gpt")
                .doesNotContain(MessagesItSupport.UPSTREAM_KEY);
    }

    @Test
    void aStreamThatNeverStartedFailsAsAPlain503NotAnEmptyStream() {
        ServiceUnavailableException e = assertThrows(ServiceUnavailableException.class,
                () -> MessagesItSupport.stream(GATEWAY.client(), MessagesItSupport.ask("claude-dead", "hi")));

        assertThat(e.body().convert(JsonNode.class).path("type").asText()).isEqualTo("error");
        assertThat(ItSupport.upstreamModels(GATEWAY.gateway())).containsExactly("up-dead-fail529", "up-gone-fail503");
    }

    @Test
    void anUpstreamErrorMidStreamIsAnErrorEventInTheEnvelopeAndTheStreamEnds() {
        HttpResponse<String> response = ItSupport.post(GATEWAY.gateway(), "/v1/messages", MessagesItSupport.headers(GATEWAY.gateway().apiKey()),
                "{\"model\":\"claude-midfail\",\"max_tokens\":100,\"stream\":true,"
                        + "\"messages\":[{\"role\":\"user\",\"content\":\"tell me a long story\"}]}");

        assertThat(response.statusCode()).isEqualTo(200);
        List<String> names = response.body().lines().filter(l -> l.startsWith("event:")).map(l -> l.substring(6).strip()).toList();
        assertThat(names.getFirst()).isEqualTo("message_start");
        assertThat(names.getLast()).isEqualTo("error");
        assertThat(names).doesNotContain("message_stop");
        JsonNode error = ItSupport.json(ItSupport.sseData(response.body()).getLast());
        assertThat(error.path("type").asText()).isEqualTo("error");
        assertThat(error.path("error").path("message").asText()).isEqualTo("Overloaded");
        // one rule for errors inside a stream, in every format: a failed provider is 503 (the upstream's words kept)
        assertThat(error.path("error").path("code").asText()).isEqualTo("503");
        // after the first frame the client has seen this provider's answer: no silent switch to another
        assertThat(ItSupport.upstreamModels(GATEWAY.gateway())).containsExactly("up-cut-midfail");
    }

    @Test
    void aStreamThatEndsBeforeItsFirstEventFailsOverInvisibly() {
        Message message = streamed(MessagesItSupport.ask("claude-empty", "hi"));

        assertThat(MessagesItSupport.text(message)).isEqualTo("Hello from up-claude-saved! You said: hi");
        assertThat(ItSupport.upstreamModels(GATEWAY.gateway())).containsExactly("up-void-empty", "up-claude-saved");
    }

    @Test
    void aNonRetryableRefusalReachesTheClientWithTheUpstreamsMessageAndStopsTheFailover() {
        BadRequestException e = assertThrows(BadRequestException.class,
                () -> GATEWAY.client().messages().create(MessagesItSupport.ask("claude-picky", "hi")));

        assertThat(e.body().convert(JsonNode.class).path("error").path("message").asText())
                .contains("scripted failure 400");
        assertThat(ItSupport.upstreamModels(GATEWAY.gateway())).containsExactly("up-picky-fail400");
    }

    @Test
    void aTrailingAssistantTurnIsSentAsNativePrefill() {
        Message message = GATEWAY.client().messages().create(prefilled("claude-chat"));

        assertThat(MessagesItSupport.text(message)).isNotBlank();
        List<RecordedRequest> sent = GATEWAY.gateway().upstream().received("up-claude");
        assertThat(sent).hasSize(1);
        JsonNode last = sent.getFirst().json().path("messages").get(1);
        assertThat(last.path("role").asText()).isEqualTo("assistant");
        assertThat(last.toString()).contains("Autumn leaves");
    }

    @Test
    void aProviderRefusingPrefillIsRetriedOnceWithTheRewriteAndTheAnswerIsTheContinuationOnly() {
        prefillRewrite(false);
    }

    @Test
    void aProviderRefusingPrefillIsRetriedOnceWithTheRewriteWhenStreamedToo() {
        prefillRewrite(true);
    }

    private void prefillRewrite(boolean stream) {
        Message message = stream ? streamed(prefilled("claude-noprefill")) : GATEWAY.client().messages().create(prefilled("claude-noprefill"));

        // the fake quotes the last user text; after the rewrite that is the request for the continuation
        assertThat(MessagesItSupport.text(message)).startsWith("Hello from up-strict-noprefill! You said: ")
                .doesNotStartWith("Autumn leaves");
        List<RecordedRequest> sent = GATEWAY.gateway().upstream().received("up-strict-noprefill");
        assertThat(sent).hasSize(2);
        JsonNode refused = sent.get(0).json().path("messages");
        assertThat(refused.get(refused.size() - 1).path("role").asText()).isEqualTo("assistant");
        JsonNode rewritten = sent.get(1).json().path("messages");
        JsonNode last = rewritten.get(rewritten.size() - 1);
        assertThat(last.path("role").asText()).isEqualTo("user");
        assertThat(last.toString()).contains("Autumn leaves").contains("Write a haiku about autumn");
    }
}
