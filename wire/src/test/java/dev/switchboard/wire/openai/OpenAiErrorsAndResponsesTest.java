package dev.switchboard.wire.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.StopReason;
import dev.switchboard.wire.Json;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class OpenAiErrorsAndResponsesTest {

    private static GatewayError upstream(int status, String body) {
        return OpenAi.errorFromUpstream(status, body.getBytes(StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @CsvSource({"408,true", "409,true", "425,true", "429,true", "500,true", "502,true", "503,true", "504,true",
            "529,true", "400,false", "401,false", "403,false", "404,false", "413,false", "422,false"})
    void retryableFollowsTheStatus(int status, boolean retryable) {
        GatewayError e = upstream(status, "{\"error\":{\"message\":\"m\"}}");
        assertThat(e.retryable()).isEqualTo(retryable);
        assertThat(e.status()).isEqualTo(status);
        assertThat(e.message()).isEqualTo("m");
    }

    @Test
    void envelopeVariantsAreRead() {
        assertThat(upstream(400, "{\"error\":\"bad thing\"}").message()).isEqualTo("bad thing");
        assertThat(upstream(400, "{\"message\":\"top level\"}").message()).isEqualTo("top level");
        assertThat(upstream(503, "[{\"error\":{\"code\":503,\"message\":\"overloaded\",\"status\":\"UNAVAILABLE\"}}]")
                .message()).isEqualTo("overloaded");
        GatewayError withParam = upstream(400,
                "{\"error\":{\"message\":\"too long\",\"type\":\"invalid_request_error\",\"param\":\"messages\","
                        + "\"code\":\"context_length_exceeded\"}}");
        assertThat(withParam.param()).contains("messages");
        assertThat(withParam.type()).isEqualTo("invalid_request_error");
        assertThat(upstream(500, "").message()).contains("HTTP 500");
        assertThat(upstream(200, "{\"error\":\"odd\"}").status()).isEqualTo(502);
        assertThat(upstream(502, "x".repeat(5000)).message()).hasSizeLessThan(1100);
    }

    @Test
    void keysQuotedByTheUpstreamAreRedacted() {
        assertThat(upstream(401, "{\"error\":{\"message\":\"Incorrect API key provided: sk-abc123456789XYZ.\"}}")
                .message()).isEqualTo("Incorrect API key provided: [redacted].");
    }

    @Test
    void errorBodyHasTheSpecEnvelope() {
        assertThat(Json.write(OpenAi.errorBody(GatewayError.invalid("messages[2].role", "bad role"))))
                .isEqualTo("{\"error\":{\"message\":\"bad role\",\"type\":\"invalid_request_error\","
                        + "\"param\":\"messages[2].role\",\"code\":\"400\"}}");
        assertThat(Json.write(OpenAi.errorBody(GatewayError.rateLimited("slow down"))))
                .isEqualTo("{\"error\":{\"message\":\"slow down\",\"type\":\"rate_limit_error\",\"param\":null,"
                        + "\"code\":\"429\"}}");
    }

    @Test
    void malformedUpstreamAnswersAreRetryable502s() {
        for (String body : new String[] {"[]", "{\"choices\":[]}", "{\"id\":\"x\"}",
                "{\"error\":{\"message\":\"boom\"}}"}) {
            assertThatThrownBy(() -> OpenAi.fromUpstream(Json.parse(body)))
                    .isInstanceOfSatisfying(GatewayException.class, e -> {
                        assertThat(e.error().status()).isEqualTo(502);
                        assertThat(e.error().retryable()).isTrue();
                    });
        }
    }

    @Test
    void aStopWithToolCallsIsToolUseAndContentPartsAreText() {
        ChatResponse r = OpenAi.fromUpstream(Json.parse("""
                {"id":"x","model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant",
                 "content":[{"type":"text","text":"a"},{"type":"text","text":"b"}],
                 "tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}}]}"""));
        assertThat(r.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(r.text()).isEqualTo("ab");
        assertThat(r.stopSequence()).isEqualTo(Optional.empty());
    }

    @Test
    void unknownFinishReasonsAreOtherAndRenderAsStop() {
        ChatResponse r = OpenAi.fromUpstream(Json.parse("""
                {"id":"x","model":"m","choices":[{"index":0,"finish_reason":"abort","message":{"content":"a"}}]}"""));
        assertThat(r.stopReason()).isEqualTo(StopReason.OTHER);
        assertThat(OpenAi.toClient(r, 1).path("choices").path(0).path("finish_reason").asText()).isEqualTo("stop");
    }
}
