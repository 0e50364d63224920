package dev.switchboard.wire.gemini;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.GatewayError;
import dev.switchboard.wire.Json;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GeminiErrorsTest {

    @Test
    void clientBodyIsTheSpecEnvelopePlusGooglesStatusWord() {
        JsonNode body = Gemini.errorBody(GatewayError.invalid("contents[1].parts[0]", "bad part"));

        assertThat(body.size()).isEqualTo(1);
        JsonNode error = body.get("error");
        assertThat(error.get("message").asText()).isEqualTo("bad part");
        assertThat(error.get("type").asText()).isEqualTo("invalid_request_error");
        assertThat(error.get("param").asText()).isEqualTo("contents[1].parts[0]");
        assertThat(error.get("code").isTextual()).as("spec 7: code is the status as a string").isTrue();
        assertThat(error.get("code").asText()).isEqualTo("400");
        assertThat(error.get("status").asText()).isEqualTo("INVALID_ARGUMENT");
    }

    @Test
    void paramIsNullWhenNoFieldIsAtFault() {
        JsonNode error = Gemini.errorBody(GatewayError.rateLimited("slow down")).get("error");

        assertThat(error.get("param").isNull()).isTrue();
        assertThat(error.get("status").asText()).isEqualTo("RESOURCE_EXHAUSTED");
    }

    @ParameterizedTest
    @CsvSource({
        "400, INVALID_ARGUMENT", "401, UNAUTHENTICATED", "402, FAILED_PRECONDITION", "403, PERMISSION_DENIED",
        "404, NOT_FOUND", "429, RESOURCE_EXHAUSTED", "500, INTERNAL", "503, UNAVAILABLE", "504, DEADLINE_EXCEEDED",
    })
    void statusWords(int status, String word) {
        assertThat(GeminiErrors.statusWord(status)).isEqualTo(word);
    }

    @Test
    void inStreamElementCarriesANumericCodeForTheSdk() {
        JsonNode error = GeminiErrors.streamElement(GatewayError.upstreamUnavailable("down")).get("error");

        assertThat(error.get("code").isInt()).isTrue();
        assertThat(error.get("code").asInt()).isEqualTo(503);
        assertThat(error.get("status").asText()).isEqualTo("UNAVAILABLE");
    }

    @Test
    void googlesInvalidKeyIsA401SoTheEngineRotatesKeys() {
        GatewayError e = Gemini.errorFromUpstream(400, bytes("""
                {"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT",
                 "details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID",
                 "domain":"googleapis.com"}]}}"""));

        assertThat(e.status()).isEqualTo(401);
        assertThat(e.message()).isEqualTo("API key not valid. Please pass a valid API key.");
        assertThat(e.retryable()).isFalse();
    }

    @Test
    void anOrdinary400StaysANonRetryable400WithGooglesMessage() {
        GatewayError e = Gemini.errorFromUpstream(400, bytes("""
                {"error":{"code":400,"message":"Function call is missing a thought_signature in functionCall parts.",
                 "status":"INVALID_ARGUMENT"}}"""));

        assertThat(e.status()).isEqualTo(400);
        assertThat(e.type()).isEqualTo("invalid_request_error");
        assertThat(e.message()).startsWith("Function call is missing a thought_signature");
        assertThat(e.retryable()).isFalse();
    }

    @Test
    void failedPreconditionIsAProviderProblemAnotherProviderMayNotHave() {
        GatewayError e = Gemini.errorFromUpstream(400, bytes(
                "{\"error\":{\"code\":400,\"message\":\"User location is not supported for the API use.\",\"status\":\"FAILED_PRECONDITION\"}}"));

        assertThat(e.status()).isEqualTo(403);
        assertThat(e.retryable()).isTrue();
    }

    @ParameterizedTest
    @CsvSource({"429, true, rate_limit_error", "500, true, api_error", "503, true, api_error", "404, false, model_not_found",
        "403, false, model_access_denied", "402, false, insufficient_quota", "400, false, invalid_request_error"})
    void statusDecidesRetryability(int status, boolean retryable, String type) {
        GatewayError e = Gemini.errorFromUpstream(status, bytes("{\"error\":{\"code\":" + status + ",\"message\":\"m\"}}"));

        assertThat(e.status()).isEqualTo(status);
        assertThat(e.retryable()).isEqualTo(retryable);
        assertThat(e.type()).isEqualTo(type);
        assertThat(e.message()).isEqualTo("m");
    }

    @Test
    void arrayBodiesOfTheJsonStreamAndNonJsonBodiesAreRead() {
        assertThat(Gemini.errorFromUpstream(503, bytes("[{\"error\":{\"code\":503,\"message\":\"overloaded\",\"status\":\"UNAVAILABLE\"}}]"))
                .message()).isEqualTo("overloaded");
        assertThat(Gemini.errorFromUpstream(502, bytes("<html>Bad Gateway</html>")).message()).isEqualTo("<html>Bad Gateway</html>");
        assertThat(Gemini.errorFromUpstream(500, new byte[0]).message()).contains("500");
        assertThat(Gemini.errorFromUpstream(200, bytes("{}")).status()).as("not an error status").isEqualTo(502);
    }

    @Test
    void googleKeysAreRedacted() {
        GatewayError e = Gemini.errorFromUpstream(403, bytes(
                "{\"error\":{\"message\":\"Key AIzaSyA1234567890abcdefghijklmnopqrstu is disabled\"}}"));

        assertThat(e.message()).isEqualTo("Key [redacted] is disabled").doesNotContain("AIza");
    }

    @Test
    void inBandErrorsWithoutNumericCodeUseTheStatusWord() {
        assertThat(GeminiErrors.fromStreamError(Json.parse("{\"status\":\"RESOURCE_EXHAUSTED\",\"message\":\"quota\"}")))
                .isEqualTo(new GatewayError(429, "rate_limit_error", "quota", Optional.empty(), true));
        assertThat(GeminiErrors.fromStreamError(Json.parse("{\"code\":\"503\"}")).status()).isEqualTo(500);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
