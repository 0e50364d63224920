package dev.switchboard.testkit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.anthropic.client.AnthropicClient;
import com.anthropic.errors.AnthropicServiceException;
import com.anthropic.errors.BadRequestException;
import com.anthropic.errors.NotFoundException;
import com.anthropic.errors.UnauthorizedException;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCountTokensParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.anthropic.models.messages.StopReason;
import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.testkit.RecordedRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code POST /v1/messages} and {@code /v1/messages/count_tokens} judged by the official Anthropic Java SDK:
 * plain and streamed answers from an Anthropic upstream and from an OpenAI one, both ways of sending the key,
 * the version header, errors in the envelope the SDK reads, and token counting that never reaches an upstream.
 */
class MessagesIT {
    @RegisterExtension
    static final SdkGateway<AnthropicClient> GATEWAY = MessagesItSupport.anthropicGateway();

    @Test
    void createAgainstAnAnthropicUpstreamSendsTheProviderKeyAndVersionAndAnswersWithTheGatewayModel() {
        Message message = GATEWAY.client().messages().create(MessagesItSupport.ask("claude-chat", "Say hi to the tests"));

        assertThat(message.model().asString()).isEqualTo("claude-chat");
        assertThat(MessagesItSupport.text(message)).isEqualTo("Hello from up-claude! You said: Say hi to the tests");
        assertThat(message.stopReason()).contains(StopReason.END_TURN);
        // the Anthropic fake counts its prompt as role-tagged units: ceil(len("user:Say hi to the tests") / 4) = 6
        assertThat(message.usage().inputTokens()).isEqualTo(6);
        assertThat(message.usage().outputTokens()).isEqualTo(MessagesItSupport.text(message).split(" ").length);
        assertThat(message.usage().cacheReadInputTokens()).isEmpty();
        assertThat(message.usage().cacheCreationInputTokens()).isEmpty();

        RecordedRequest sent = GATEWAY.gateway().upstream().received("up-claude").getFirst();
        assertThat(sent.path()).isEqualTo("/v1/messages");
        assertThat(sent.header("x-api-key")).contains(MessagesItSupport.UPSTREAM_KEY);
        assertThat(sent.header("anthropic-version")).contains("2023-06-01");
        assertThat(sent.header("authorization")).isEmpty();
        assertThat(sent.bodyText()).doesNotContain(GATEWAY.gateway().apiKey());
        assertThat(sent.json().path("max_tokens").asInt()).isEqualTo(1024);
    }

    @Test
    void createAgainstAnOpenAiUpstreamAnswersInTheMessagesShape() {
        Message message = GATEWAY.client().messages().create(MessagesItSupport.ask("gpt-chat", "Say hi to the tests"));

        assertThat(message.model().asString()).isEqualTo("gpt-chat");
        assertThat(message.id()).isNotBlank();
        assertThat(MessagesItSupport.text(message)).isEqualTo("Hello from up-gpt! You said: Say hi to the tests");
        assertThat(message.stopReason()).contains(StopReason.END_TURN);
        assertThat(message.usage().inputTokens()).isEqualTo(5);

        RecordedRequest sent = GATEWAY.gateway().upstream().received("up-gpt").getFirst();
        assertThat(sent.path()).isEqualTo("/v1/chat/completions");
        assertThat(ItSupport.authorization(sent)).isEqualTo("Bearer " + MessagesItSupport.UPSTREAM_KEY);
        assertThat(sent.json().path("messages").get(0).path("content").asText()).isEqualTo("Say hi to the tests");
    }

    @Test
    void streamFromAnAnthropicUpstreamAssemblesToTheSameAnswerWithUsageOnMessageDelta() {
        List<RawMessageStreamEvent> events = MessagesItSupport.stream(GATEWAY.client(), MessagesItSupport.ask("claude-chat", "Say hi to the tests"));

        assertThat(events.getFirst().isMessageStart()).isTrue();
        assertThat(events.getLast().isMessageStop()).isTrue();
        RawMessageStreamEvent delta = events.get(events.size() - 2);
        assertThat(delta.isMessageDelta()).isTrue();
        assertThat(delta.asMessageDelta().usage().outputTokens()).isPositive();
        Message message = MessagesItSupport.accumulate(events);
        assertThat(message.model().asString()).isEqualTo("claude-chat");
        assertThat(MessagesItSupport.text(message)).isEqualTo("Hello from up-claude! You said: Say hi to the tests");
        assertThat(message.stopReason()).contains(StopReason.END_TURN);
        assertThat(message.usage().inputTokens()).isEqualTo(6);
        assertThat(GATEWAY.gateway().upstream().received("up-claude").getFirst().json().path("stream").asBoolean()).isTrue();
    }

    @Test
    void streamFromAnOpenAiUpstreamIsANamedEventStreamTheSdkAssembles() {
        List<RawMessageStreamEvent> events = MessagesItSupport.stream(GATEWAY.client(), MessagesItSupport.ask("gpt-chat", "Say hi to the tests"));

        Message message = MessagesItSupport.accumulate(events);
        assertThat(message.model().asString()).isEqualTo("gpt-chat");
        assertThat(MessagesItSupport.text(message)).isEqualTo("Hello from up-gpt! You said: Say hi to the tests");
        assertThat(message.stopReason()).contains(StopReason.END_TURN);
        assertThat(message.usage().inputTokens()).isEqualTo(5);
        assertThat(message.usage().outputTokens()).isPositive();
    }

    @Test
    void rawStreamHasEventLinesMatchingTheirPayloadTypesInTheSpecOrder() {
        HttpResponse<String> response = ItSupport.post(GATEWAY.gateway(), "/v1/messages", MessagesItSupport.headers(GATEWAY.gateway().apiKey()),
                "{\"model\":\"claude-chat\",\"max_tokens\":100,\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type").orElse("")).startsWith("text/event-stream");
        List<String> names = response.body().lines().filter(l -> l.startsWith("event:")).map(l -> l.substring(6).strip()).toList();
        List<JsonNode> payloads = ItSupport.sseData(response.body()).stream().map(ItSupport::json).toList();
        assertThat(names).hasSameSizeAs(payloads);
        for (int i = 0; i < names.size(); i++) {
            assertThat(payloads.get(i).path("type").asText()).isEqualTo(names.get(i));
        }
        assertThat(names.getFirst()).isEqualTo("message_start");
        assertThat(names.subList(names.size() - 2, names.size())).containsExactly("message_delta", "message_stop");
        assertThat(names).contains("content_block_start", "content_block_delta", "content_block_stop");
    }

    @Test
    void bearerKeyIsAcceptedLikeXApiKey() {
        Message message = MessagesItSupport.bearerClient(GATEWAY.gateway()).messages().create(MessagesItSupport.ask("claude-chat", "hi"));

        assertThat(MessagesItSupport.text(message)).isEqualTo("Hello from up-claude! You said: hi");
        // the caller's credential never travels upstream, whichever header carried it
        RecordedRequest sent = GATEWAY.gateway().upstream().received("up-claude").getFirst();
        assertThat(sent.header("x-api-key")).contains(MessagesItSupport.UPSTREAM_KEY);
        assertThat(sent.header("authorization")).isEmpty();
    }

    @Test
    void unknownKeyIsUnauthorizedInTheEnvelopeWithTopLevelTypeError() {
        AnthropicClient stranger = com.anthropic.client.okhttp.AnthropicOkHttpClient.builder()
                .baseUrl(GATEWAY.gateway().baseUrl()).apiKey("sk-sb-never-issued-0123456789abcdefghijklmnopqrstu").maxRetries(0).build();

        UnauthorizedException e = assertThrows(UnauthorizedException.class,
                () -> stranger.messages().create(MessagesItSupport.ask("claude-chat", "hi")));

        assertThat(e.statusCode()).isEqualTo(401);
        JsonNode body = e.body().convert(JsonNode.class);
        assertThat(body.path("type").asText()).isEqualTo("error");
        assertThat(body.path("error").path("code").asText()).isEqualTo("401");
        assertThat(body.path("error").has("param")).isTrue();
        assertThat(GATEWAY.gateway().upstream().received()).isEmpty();
    }

    @Test
    void missingKeyIs401NamingBothHeaders() {
        HttpResponse<String> response = ItSupport.post(GATEWAY.gateway(), "/v1/messages",
                Map.of("anthropic-version", "2023-06-01", "content-type", "application/json"),
                "{\"model\":\"claude-chat\",\"max_tokens\":10,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

        assertThat(response.statusCode()).isEqualTo(401);
        JsonNode body = ItSupport.json(response.body());
        assertThat(body.path("type").asText()).isEqualTo("error");
        assertThat(body.path("error").path("message").asText()).contains("x-api-key").contains("Authorization");
    }

    @Test
    void missingVersionHeaderIs400NamingIt() {
        HttpResponse<String> response = ItSupport.post(GATEWAY.gateway(), "/v1/messages",
                Map.of("x-api-key", GATEWAY.gateway().apiKey(), "content-type", "application/json"),
                "{\"model\":\"claude-chat\",\"max_tokens\":10,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode body = ItSupport.json(response.body());
        assertThat(body.path("type").asText()).isEqualTo("error");
        JsonNode error = body.path("error");
        assertThat(error.path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(error.path("param").asText()).isEqualTo("anthropic-version");
        assertThat(error.path("code").asText()).isEqualTo("400");
        assertThat(error.path("message").asText()).contains("anthropic-version");
        assertThat(response.headers().firstValue("request-id")).isEqualTo(response.headers().firstValue("x-request-id"));
        assertThat(GATEWAY.gateway().upstream().received()).isEmpty();
    }

    @Test
    void temperatureAboveOneIsABadRequestNamingTemperature() {
        BadRequestException e = assertThrows(BadRequestException.class, () -> GATEWAY.client().messages().create(
                MessagesItSupport.ask("claude-chat", "hi").toBuilder()
                        .putAdditionalBodyProperty("temperature", com.anthropic.core.JsonValue.from(1.5)).build()));

        JsonNode error = e.body().convert(JsonNode.class).path("error");
        assertThat(error.path("param").asText()).isEqualTo("temperature");
        assertThat(error.path("code").asText()).isEqualTo("400");
        assertThat(GATEWAY.gateway().upstream().received()).isEmpty();
    }

    @Test
    void missingMaxTokensIs400NamingIt() {
        HttpResponse<String> response = ItSupport.post(GATEWAY.gateway(), "/v1/messages", MessagesItSupport.headers(GATEWAY.gateway().apiKey()),
                "{\"model\":\"claude-chat\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(ItSupport.json(response.body()).path("error").path("param").asText()).isEqualTo("max_tokens");
    }

    @Test
    void malformedJsonIs400InTheMessagesEnvelope() {
        HttpResponse<String> response = ItSupport.post(GATEWAY.gateway(), "/v1/messages", MessagesItSupport.headers(GATEWAY.gateway().apiKey()),
                "{\"model\": \"claude-chat\", \"messages\": [");

        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode body = ItSupport.json(response.body());
        assertThat(body.path("type").asText()).isEqualTo("error");
        assertThat(body.path("error").path("message").asText()).isNotBlank().doesNotContain("Exception");
    }

    @Test
    void unknownModelIsNotFound() {
        NotFoundException e = assertThrows(NotFoundException.class,
                () -> GATEWAY.client().messages().create(MessagesItSupport.ask("no-such-model", "hi")));

        assertThat(e.body().convert(JsonNode.class).path("error").path("type").asText()).isEqualTo("model_not_found");
    }

    @Test
    void countTokensEstimatesSystemMessagesAndToolsAtFourCharactersPerTokenWithoutAnUpstream() {
        MessageCountTokensParams params = MessageCountTokensParams.builder()
                .model("claude-chat")
                .system("be brief")                    // 8 characters
                .addUserMessage("Count me, please")    // 16 characters
                .build();

        long plain = GATEWAY.client().messages().countTokens(params).inputTokens();
        long withTool = GATEWAY.client().messages().countTokens(params.toBuilder()
                .addTool(MessagesItSupport.tool("get_weather", "city")).build()).inputTokens();

        assertThat(plain).isEqualTo(6); // ceil(24 / 4)
        assertThat(withTool).isGreaterThan(plain);
        assertThat(GATEWAY.gateway().upstream().received()).isEmpty();
    }

    @Test
    void countTokensAcceptsBearerAndNeedsTheVersionHeaderToo() {
        long tokens = MessagesItSupport.bearerClient(GATEWAY.gateway()).messages().countTokens(MessageCountTokensParams.builder()
                .model("gpt-chat").addUserMessage("abcd").build()).inputTokens();
        HttpResponse<String> unversioned = ItSupport.post(GATEWAY.gateway(), "/v1/messages/count_tokens",
                Map.of("x-api-key", GATEWAY.gateway().apiKey(), "content-type", "application/json"),
                "{\"model\":\"gpt-chat\",\"messages\":[{\"role\":\"user\",\"content\":\"abcd\"}]}");

        assertThat(tokens).isEqualTo(1);
        assertThat(unversioned.statusCode()).isEqualTo(400);
        assertThat(ItSupport.json(unversioned.body()).path("error").path("param").asText()).isEqualTo("anthropic-version");
    }

    @Test
    void countTokensForAnUnknownModelIsNotFound() {
        AnthropicServiceException e = assertThrows(NotFoundException.class, () -> GATEWAY.client().messages().countTokens(
                MessageCountTokensParams.builder().model("no-such-model").addUserMessage("hi").build()));

        assertThat(e.statusCode()).isEqualTo(404);
    }

    @Test
    void aKeyScopedToCountTokensMayCountButNotGenerate() {
        String countOnly = GATEWAY.gateway().newKey(List.of(), List.of("count_tokens"));
        HttpResponse<String> count = ItSupport.post(GATEWAY.gateway(), "/v1/messages/count_tokens", MessagesItSupport.headers(countOnly),
                "{\"model\":\"claude-chat\",\"messages\":[{\"role\":\"user\",\"content\":\"abcd\"}]}");
        HttpResponse<String> create = ItSupport.post(GATEWAY.gateway(), "/v1/messages", MessagesItSupport.headers(countOnly),
                "{\"model\":\"claude-chat\",\"max_tokens\":10,\"messages\":[{\"role\":\"user\",\"content\":\"abcd\"}]}");

        assertThat(count.statusCode()).isEqualTo(200);
        assertThat(ItSupport.json(count.body()).path("input_tokens").asLong()).isEqualTo(1);
        assertThat(create.statusCode()).isEqualTo(403);
        assertThat(ItSupport.json(create.body()).path("type").asText()).isEqualTo("error");
        assertThat(GATEWAY.gateway().upstream().received()).isEmpty();
    }
}
