package dev.switchboard.testkit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.errors.BadRequestException;
import com.openai.errors.NotFoundException;
import com.openai.errors.OpenAIServiceException;
import com.openai.errors.UnauthorizedException;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionToolChoiceOption;
import com.openai.models.chat.completions.ChatCompletionUserMessageParam;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Requests the gateway refuses (spec 7, docs/contracts.md §4): the SDK raises the exception class of the status and
 * finds the envelope's {@code type}, {@code param} and {@code code}; nothing reaches the upstream.
 */
class ErrorsIT {
    @RegisterExtension
    static final SdkGateway<OpenAIClient> GATEWAY = ItSupport.openAiGateway();

    @AfterEach
    void nothingReachedTheUpstream() {
        assertThat(GATEWAY.gateway().upstream().received()).isEmpty();
    }

    private static BadRequestException badRequest(ChatCompletionCreateParams params) {
        return assertThrows(BadRequestException.class, () -> GATEWAY.client().chat().completions().create(params));
    }

    private static void assertEnvelope(OpenAIServiceException e, int status, String type) {
        assertThat(e.statusCode()).isEqualTo(status);
        assertThat(e.type()).contains(type);
        assertThat(e.code()).contains(Integer.toString(status));
        JsonNode body = ItSupport.body(e);
        assertThat(body.path("message").asText()).isNotBlank();
        assertThat(body.has("param")).as("param is always present, null when no field is at fault").isTrue();
    }

    @Test
    void missingKeyIs401InTheSpecEnvelope() {
        HttpResponse<String> response = ItSupport.post(GATEWAY.gateway(), "/v1/chat/completions", Map.of("content-type", "application/json"),
                "{\"model\":\"chat-basic\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

        assertThat(response.statusCode()).isEqualTo(401);
        JsonNode error = ItSupport.json(response.body()).path("error");
        assertThat(error.path("code").asText()).isEqualTo("401");
        assertThat(error.path("type").asText()).isIn("invalid_request_error", "auth_required");
        assertThat(error.path("param").isNull()).isTrue();
        assertThat(error.path("message").asText()).isNotBlank();
    }

    @Test
    void sdkWithoutAUsableKeyGetsUnauthorizedException() {
        OpenAIClient keyless = ItSupport.client(GATEWAY.gateway(), " ");

        UnauthorizedException e = assertThrows(UnauthorizedException.class,
                () -> keyless.chat().completions().create(ItSupport.ask("chat-basic", "hi")));

        assertThat(e.statusCode()).isEqualTo(401);
        assertThat(e.code()).contains("401");
    }

    @Test
    void wrongKeyIsUnauthorizedExceptionWithCode401() {
        OpenAIClient stranger = ItSupport.client(GATEWAY.gateway(), "sk-sb-this-key-was-never-issued-0123456789abcdefghijklmnopq");

        UnauthorizedException e = assertThrows(UnauthorizedException.class,
                () -> stranger.chat().completions().create(ItSupport.ask("chat-basic", "hi")));

        assertEnvelope(e, 401, e.type().orElse("?"));
        assertThat(e.type().orElseThrow()).isIn("invalid_request_error", "auth_required");
    }

    @Test
    void temperatureAboveTwoIs400NamingTemperature() {
        BadRequestException e = badRequest(ItSupport.ask("chat-basic", "hi").toBuilder().temperature(3.0).build());

        assertEnvelope(e, 400, "invalid_request_error");
        assertThat(e.param()).contains("temperature");
    }

    @Test
    void fiveStopSequencesAre400NamingStop() {
        BadRequestException e = badRequest(ItSupport.ask("chat-basic", "hi").toBuilder()
                .stopOfStrings(List.of("a", "b", "c", "d", "e")).build());

        assertEnvelope(e, 400, "invalid_request_error");
        assertThat(e.param()).contains("stop");
    }

    @Test
    void fourStopSequencesAreAccepted() {
        var ok = GATEWAY.client().chat().completions().create(ItSupport.ask("chat-basic", "hi").toBuilder()
                .stopOfStrings(List.of("a", "b", "c", "d")).build());

        assertThat(ok.model()).isEqualTo("chat-basic");
        GATEWAY.gateway().upstream().reset(); // this one was meant to reach it
    }

    @Test
    void fourFallbackModelsAre400NamingModels() {
        BadRequestException e = badRequest(ItSupport.ask("chat-basic", "hi").toBuilder()
                .putAdditionalBodyProperty("models", JsonValue.from(List.of("chat-backup", "chat-tools", "chat-down", "chat-slow")))
                .build());

        assertEnvelope(e, 400, "invalid_request_error");
        assertThat(e.param()).contains("models");
    }

    @Test
    void unknownToolChoiceIs400NamingToolChoice() {
        BadRequestException e = badRequest(ItSupport.ask("chat-tools", "hi").toBuilder()
                .toolChoice(ChatCompletionToolChoiceOption.Auto.of("sometimes")).build());

        assertEnvelope(e, 400, "invalid_request_error");
        assertThat(e.param()).contains("tool_choice");
    }

    @Test
    void unknownRoleIs400NamingTheMessagesRole() {
        BadRequestException e = badRequest(ChatCompletionCreateParams.builder().model("chat-basic")
                .addMessage(ChatCompletionUserMessageParam.builder().content("hi").role(JsonValue.from("wizard")).build())
                .build());

        assertEnvelope(e, 400, "invalid_request_error");
        assertThat(e.param()).contains("messages[0].role");
    }

    @Test
    void malformedJsonIs400NotA5xx() {
        HttpResponse<String> response = ItSupport.post(GATEWAY.gateway(), "/v1/chat/completions", ItSupport.bearer(GATEWAY.gateway().apiKey()),
                "{\"model\": \"chat-basic\", \"messages\": [");

        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode error = ItSupport.json(response.body()).path("error");
        assertThat(error.path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(error.path("code").asText()).isEqualTo("400");
        assertThat(error.path("message").asText()).isNotBlank().doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void unknownModelIs404ModelNotFoundNamingModel() {
        NotFoundException e = assertThrows(NotFoundException.class,
                () -> GATEWAY.client().chat().completions().create(ItSupport.ask("no-such-model", "hi")));

        assertEnvelope(e, 404, "model_not_found");
        assertThat(e.param()).contains("model");
    }
}
