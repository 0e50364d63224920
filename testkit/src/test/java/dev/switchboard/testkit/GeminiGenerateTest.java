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
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class GeminiGenerateTest extends FakeUpstreamSupport {
    private final GeminiTestClient client = new GeminiTestClient(upstream);

    @Test
    void answersTextInGooglesResponseShape() throws Exception {
        HttpResponse<String> response = client.generate("fake-model", body("Say hi"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
        JsonNode r = json(response.body());
        JsonNode candidate = r.at("/candidates/0");
        assertThat(candidate.at("/content/role").asText()).isEqualTo("model");
        assertThat(candidate.at("/content/parts")).hasSize(1);
        assertThat(candidate.at("/content/parts/0/text").asText()).isEqualTo("Hello from fake-model! You said: Say hi");
        assertThat(candidate.get("finishReason").asText()).isEqualTo("STOP");
        assertThat(candidate.get("index").asInt()).isZero();
        assertThat(r.get("modelVersion").asText()).isEqualTo("fake-model");
        assertThat(r.get("responseId").asText()).startsWith("fake-resp-");
        JsonNode usage = r.get("usageMetadata");
        assertThat(usage.get("promptTokenCount").asInt()).isEqualTo(2);
        assertThat(usage.get("candidatesTokenCount").asInt()).isEqualTo(7);
        assertThat(usage.get("totalTokenCount").asInt()).isEqualTo(9);
        assertThat(usage.has("thoughtsTokenCount")).isFalse();
        assertThat(usage.has("cachedContentTokenCount")).isFalse();
        assertThat(upstream.received("fake-model")).hasSize(1);
    }

    @Test
    void maxOutputTokensAndStopSequencesApply() throws Exception {
        ObjectNode body = body("Say hi");
        body.putObject("generationConfig").put("maxOutputTokens", 2);
        JsonNode cut = json(client.generate("fake-model", body).body());
        ObjectNode stopped = body("Say hi");
        stopped.putObject("generationConfig").putArray("stopSequences").add("!");
        JsonNode atStop = json(client.generate("fake-model", stopped).body());

        assertThat(cut.at("/candidates/0/content/parts/0/text").asText()).isEqualTo("Hello from");
        assertThat(cut.at("/candidates/0/finishReason").asText()).isEqualTo("MAX_TOKENS");
        assertThat(atStop.at("/candidates/0/content/parts/0/text").asText()).isEqualTo("Hello from fake-model");
        assertThat(atStop.at("/candidates/0/finishReason").asText()).isEqualTo("STOP");
    }

    @Test
    void callsTheDeclaredToolWithAnIdAndArgumentsAsAnObject() throws Exception {
        JsonNode r = json(client.generate("fake-model", withWeatherTool(body("Weather in Paris?"))).body());

        JsonNode parts = r.at("/candidates/0/content/parts");
        assertThat(parts).hasSize(1);
        JsonNode call = parts.get(0).get("functionCall");
        assertThat(call.get("name").asText()).isEqualTo("get_weather");
        assertThat(call.get("args")).isEqualTo(json("{\"city\":\"Paris\",\"days\":1}"));
        assertThat(call.get("id").asText()).matches("fc_\\d+");
        assertThat(parts.get(0).has("thoughtSignature")).as("no thinking, no signature").isFalse();
        assertThat(r.at("/candidates/0/finishReason").asText()).isEqualTo("STOP");
    }

    @Test
    void parallelSuffixCallsTwiceInOneAnswer() throws Exception {
        JsonNode parts = json(client.generate("fake-parallel", withWeatherTool(body("Weather?"))).body())
                .at("/candidates/0/content/parts");

        assertThat(parts).hasSize(2);
        assertThat(parts.get(0).at("/functionCall/id").asText()).isNotEqualTo(parts.get(1).at("/functionCall/id").asText());
    }

    @Test
    void toolConfigNoneAnswersWithText() throws Exception {
        ObjectNode body = withWeatherTool(body("Weather?"));
        body.putObject("toolConfig").putObject("functionCallingConfig").put("mode", "NONE");

        JsonNode r = json(client.generate("fake-model", body).body());

        assertThat(r.at("/candidates/0/content/parts/0/text").asText()).startsWith("Hello from fake-model");
    }

    @Test
    void aFunctionResponseTurnGetsTheToolResultAnswer() throws Exception {
        ObjectNode body = withWeatherTool(body("Weather in Paris?"));
        ArrayNode contents = (ArrayNode) body.get("contents");
        modelTurn(contents).addObject().putObject("functionCall").put("name", "get_weather").put("id", "fc_1")
                .putObject("args").put("city", "Paris").put("days", 1);
        userTurn(contents).addObject().putObject("functionResponse").put("name", "get_weather").put("id", "fc_1")
                .putObject("response").put("output", "Sunny, 21C");

        JsonNode r = json(client.generate("fake-model", body).body());

        assertThat(r.at("/candidates/0/content/parts/0/text").asText()).isEqualTo("Tool result received: Sunny, 21C");
    }

    @Test
    void includeThoughtsAddsAThoughtPartAndCountsItsTokens() throws Exception {
        JsonNode r = json(client.generate("fake-model", withThoughts(body("Say hi"))).body());

        JsonNode parts = r.at("/candidates/0/content/parts");
        assertThat(parts).hasSize(2);
        assertThat(parts.get(0).get("thought").asBoolean()).isTrue();
        assertThat(parts.get(0).get("text").asText()).isEqualTo(AnswerGenerator.REASONING_TEXT);
        assertThat(parts.get(1).get("text").asText()).isEqualTo("Hello from fake-model! You said: Say hi");
        JsonNode usage = r.get("usageMetadata");
        int thoughts = usage.get("thoughtsTokenCount").asInt();
        assertThat(thoughts).isPositive();
        assertThat(usage.get("candidatesTokenCount").asInt()).isEqualTo(7);
        assertThat(usage.get("totalTokenCount").asInt()).isEqualTo(2 + 7 + thoughts);
    }

    @Test
    void thinkingSignsTheFirstFunctionCallOnly() throws Exception {
        JsonNode parts = json(client.generate("fake-reasoning-parallel", withWeatherTool(body("Weather?"))).body())
                .at("/candidates/0/content/parts");

        assertThat(parts).hasSize(3);
        assertThat(parts.get(0).get("thought").asBoolean()).isTrue();
        assertThat(parts.get(1).get("thoughtSignature").asText()).isNotEmpty();
        assertThat(Base64.getDecoder().decode(parts.get(1).get("thoughtSignature").asText()))
                .as("signatures are base64 bytes, as the SDKs decode them").isNotEmpty();
        assertThat(parts.get(2).has("thoughtSignature")).isFalse();
    }

    @Test
    void cacheSuffixReportsHalfThePromptAsCachedContent() throws Exception {
        JsonNode usage = json(client.generate("fake-cache", body("x".repeat(400))).body()).get("usageMetadata");

        assertThat(usage.get("promptTokenCount").asInt()).isEqualTo(100);
        assertThat(usage.get("cachedContentTokenCount").asInt()).isEqualTo(50);
    }

    @Test
    void snakeCaseFieldsAreReadToo() throws Exception {
        ObjectNode body = TestClient.JSON.createObjectNode();
        body.putArray("contents").addObject().put("role", "user").putArray("parts").addObject().put("text", "Say hi");
        body.putObject("generation_config").put("max_output_tokens", 1);

        JsonNode r = json(client.generate("fake-model", body).body());

        assertThat(r.at("/candidates/0/content/parts/0/text").asText()).isEqualTo("Hello");
    }

    @Test
    void invalidRequestsGetGooglesEnvelope() throws Exception {
        HttpResponse<String> noContents = client.generate("fake-model", TestClient.JSON.createObjectNode());
        ObjectNode unnamed = body("hi");
        userTurn((ArrayNode) unnamed.get("contents")).addObject().putObject("functionResponse").putObject("response");
        HttpResponse<String> noName = client.generate("fake-model", unnamed);

        assertThat(noContents.statusCode()).isEqualTo(400);
        assertThat(json(noContents.body()).at("/error/status").asText()).isEqualTo("INVALID_ARGUMENT");
        assertThat(json(noContents.body()).at("/error/code").asInt()).isEqualTo(400);
        assertThat(noName.statusCode()).isEqualTo(400);
        assertThat(json(noName.body()).at("/error/message").asText())
                .isEqualTo("* GenerateContentRequest.contents[1].parts[0].function_response.name: Name cannot be empty.");
    }

    @Test
    void listsModelsInGooglesShape() throws Exception {
        upstream.models("gemini-a", "gemini-b");
        var request = HttpRequest.newBuilder(URI.create(upstream.baseUrl() + "/v1beta/models")).build();

        JsonNode list = json(client.raw().send(request).body());

        assertThat(list.get("models")).hasSize(2);
        assertThat(list.at("/models/0/name").asText()).isEqualTo("models/gemini-a");
        assertThat(list.at("/models/1/baseModelId").asText()).isEqualTo("gemini-b");
    }
}
