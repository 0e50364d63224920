package dev.switchboard.testkit;

import static dev.switchboard.testkit.GeminiTestClient.body;
import static dev.switchboard.testkit.GeminiTestClient.modelTurn;
import static dev.switchboard.testkit.GeminiTestClient.userTurn;
import static dev.switchboard.testkit.GeminiTestClient.withThoughts;
import static dev.switchboard.testkit.GeminiTestClient.withWeatherTool;
import static dev.switchboard.testkit.TestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpResponse;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** {@code -strictsig}: the fake rejects history whose function calls lost their thought signature, as Gemini 3 does. */
class GeminiSignatureTest extends FakeUpstreamSupport {
    private static final String MODEL = "fake-strictsig";

    private final GeminiTestClient client = new GeminiTestClient(upstream);

    /** Asks for a call, then sends the model's turn back with its call part changed by {@code edit}, plus the result. */
    private HttpResponse<String> secondTurn(Consumer<ObjectNode> edit) throws Exception {
        JsonNode first = json(client.generate(MODEL, withThoughts(withWeatherTool(body("Weather?")))).body());
        ObjectNode body = withThoughts(withWeatherTool(body("Weather?")));
        ArrayNode contents = (ArrayNode) body.get("contents");
        ArrayNode modelParts = modelTurn(contents);
        for (JsonNode part : first.at("/candidates/0/content/parts")) {
            ObjectNode copy = part.deepCopy();
            if (copy.has("functionCall")) {
                edit.accept(copy);
            }
            modelParts.add(copy);
        }
        JsonNode call = first.at("/candidates/0/content/parts/1/functionCall");
        userTurn(contents).addObject().putObject("functionResponse").put("name", call.get("name").asText())
                .put("id", call.get("id").asText()).putObject("response").put("output", "Sunny");
        return client.generate(MODEL, body);
    }

    @Test
    void historyWithTheSignatureUnchangedIsAccepted() throws Exception {
        HttpResponse<String> response = secondTurn(part -> { });

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response.body()).at("/candidates/0/content/parts/1/text").asText())
                .isEqualTo("Tool result received: Sunny");
    }

    @Test
    void aFunctionCallWithoutItsSignatureIsRejected() throws Exception {
        HttpResponse<String> response = secondTurn(part -> part.remove("thoughtSignature"));

        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode error = json(response.body()).get("error");
        assertThat(error.get("status").asText()).isEqualTo("INVALID_ARGUMENT");
        assertThat(error.get("message").asText()).startsWith("Function call is missing a thought_signature");
    }

    @Test
    void aSignatureTheFakeNeverIssuedIsCorrupted() throws Exception {
        HttpResponse<String> response = secondTurn(part -> part.put("thoughtSignature", "c29tZXRoaW5nIGVsc2U="));

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response.body()).at("/error/message").asText()).isEqualTo("Corrupted thought signature.");
    }

    @Test
    void googlesDocumentedPlaceholderIsAccepted() throws Exception {
        HttpResponse<String> response = secondTurn(part -> part.put("thoughtSignature", "skip_thought_signature_validator"));

        assertThat(response.statusCode()).isEqualTo(200);
    }

    @Test
    void withoutTheSuffixSignaturesAreNotChecked() throws Exception {
        ObjectNode body = withWeatherTool(body("Weather?"));
        ArrayNode contents = (ArrayNode) body.get("contents");
        modelTurn(contents).addObject().putObject("functionCall").put("name", "get_weather").putObject("args");
        userTurn(contents).addObject().putObject("functionResponse").put("name", "get_weather")
                .putObject("response").put("output", "Sunny");

        assertThat(client.generate("fake-model", body).statusCode()).isEqualTo(200);
        assertThat(client.generate(MODEL, body).statusCode()).isEqualTo(400);
    }
}
