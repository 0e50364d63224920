package dev.switchboard.testkit;

import static dev.switchboard.testkit.GeminiTestClient.KEY_HEADER;
import static dev.switchboard.testkit.GeminiTestClient.body;
import static dev.switchboard.testkit.TestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GeminiKeyAndFaultTest extends FakeUpstreamSupport {
    private final GeminiTestClient client = new GeminiTestClient(upstream);

    @Test
    void theKeyIsReadFromTheHeaderOrTheQuery() throws Exception {
        upstream.requireKey("AIza-up-1");

        assertThat(client.generate("fake-model", body("hi"), KEY_HEADER, "AIza-up-1").statusCode()).isEqualTo(200);
        assertThat(client.post("/v1beta/models/fake-model:generateContent?key=AIza-up-1", body("hi")).statusCode()).isEqualTo(200);
        assertThat(client.post("/v1beta/models/fake-model:streamGenerateContent?alt=sse&key=AIza-up-1", body("hi"))
                .statusCode()).isEqualTo(200);
    }

    @Test
    void aRejectedKeyGetsGooglesInvalidKeyAnswerNotA401() throws Exception {
        upstream.requireKey("AIza-up-1");

        for (HttpResponse<String> response : List.of(
                client.generate("fake-model", body("hi")),
                client.generate("fake-model", body("hi"), KEY_HEADER, "AIza-wrong"),
                client.generate("fake-model", body("hi"), "authorization", "Bearer AIza-up-1"))) {
            assertThat(response.statusCode()).isEqualTo(400);
            JsonNode error = json(response.body()).get("error");
            assertThat(error.get("status").asText()).isEqualTo("INVALID_ARGUMENT");
            assertThat(error.at("/details/0/reason").asText()).isEqualTo("API_KEY_INVALID");
            assertThat(response.body()).doesNotContain("AIza-");
        }
    }

    @Test
    void aKeyStatusIsAnsweredInGooglesEnvelope() throws Exception {
        upstream.keyStatus("AIza-limited", 429);

        HttpResponse<String> response = client.generate("fake-model", body("hi"), KEY_HEADER, "AIza-limited");

        assertThat(response.statusCode()).isEqualTo(429);
        assertThat(response.headers().firstValue("retry-after")).hasValue("1");
        assertThat(json(response.body()).at("/error/status").asText()).isEqualTo("RESOURCE_EXHAUSTED");
    }

    @ParameterizedTest
    @CsvSource({
        "fake-fail500, 500, INTERNAL",
        "fake-fail429, 429, RESOURCE_EXHAUSTED",
        "fake-fail503, 503, UNAVAILABLE",
        "fake-fail404, 404, NOT_FOUND",
        "fake-fail400-reasoning, 400, INVALID_ARGUMENT",
    })
    void failSuffixAnswersWithGooglesEnvelope(String model, int status, String word) throws Exception {
        HttpResponse<String> response = client.streamSse(model, body("hi"));

        assertThat(response.statusCode()).isEqualTo(status);
        JsonNode error = json(response.body()).get("error");
        assertThat(error.get("code").asInt()).isEqualTo(status);
        assertThat(error.get("status").asText()).isEqualTo(word);
        assertThat(error.get("message").asText()).contains(model);
        assertThat(response.headers().firstValue("retry-after"))
                .isEqualTo(status == 429 ? Optional.of("1") : Optional.empty());
        assertThat(upstream.received(model)).as("the model is read from the path").hasSize(1);
    }

    @Test
    void midfailCutsAPlainAnswer() {
        assertThatThrownBy(() -> client.generate("fake-midfail", body("hi")))
                .isInstanceOf(IOException.class);
    }
}
