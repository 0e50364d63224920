package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

/** Gemini request bodies and calls against a fake upstream, on top of {@link TestClient}. */
final class GeminiTestClient {

    static final String KEY_HEADER = "x-goog-api-key";

    private final TestClient client;

    GeminiTestClient(FakeUpstream upstream) {
        this.client = new TestClient(upstream);
    }

    /** A body with one user turn of text. */
    static ObjectNode body(String userText) {
        ObjectNode body = TestClient.JSON.createObjectNode();
        userTurn(body.putArray("contents")).addObject().put("text", userText);
        return body;
    }

    /** Appends {@code {role: user, parts: []}} and returns its parts. */
    static ArrayNode userTurn(ArrayNode contents) {
        ObjectNode turn = contents.addObject().put("role", "user");
        return turn.putArray("parts");
    }

    static ArrayNode modelTurn(ArrayNode contents) {
        ObjectNode turn = contents.addObject().put("role", "model");
        return turn.putArray("parts");
    }

    /** Declares get_weather (OpenAPI-style upper-case types, as Google's docs write them). */
    static ObjectNode withWeatherTool(ObjectNode body) {
        ObjectNode declaration = body.putArray("tools").addObject().putArray("functionDeclarations").addObject()
                .put("name", "get_weather").put("description", "Current weather");
        ObjectNode parameters = declaration.putObject("parameters").put("type", "OBJECT");
        ObjectNode properties = parameters.putObject("properties");
        properties.putObject("city").put("type", "STRING");
        properties.putObject("days").put("type", "INTEGER");
        parameters.putArray("required").add("city").add("days");
        return body;
    }

    static ObjectNode withThoughts(ObjectNode body) {
        body.putObject("generationConfig").putObject("thinkingConfig").put("includeThoughts", true);
        return body;
    }

    HttpResponse<String> generate(String model, JsonNode body, String... headers) throws IOException, InterruptedException {
        return post("/v1beta/models/" + model + ":generateContent", body, headers);
    }

    HttpResponse<String> streamSse(String model, JsonNode body, String... headers) throws IOException, InterruptedException {
        return post("/v1beta/models/" + model + ":streamGenerateContent?alt=sse", body, headers);
    }

    HttpResponse<String> streamArray(String model, JsonNode body, String... headers) throws IOException, InterruptedException {
        return post("/v1beta/models/" + model + ":streamGenerateContent", body, headers);
    }

    HttpResponse<String> post(String pathAndQuery, JsonNode body, String... headers) throws IOException, InterruptedException {
        var request = client.request(pathAndQuery, body.toString());
        for (int i = 0; i + 1 < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return client.send(request.build());
    }

    TestClient raw() {
        return client;
    }

    /** The JSON chunks of an {@code alt=sse} body (only {@code data:} events, no {@code [DONE]}). */
    static List<JsonNode> sseChunks(String body) {
        List<JsonNode> chunks = new ArrayList<>();
        for (String data : TestClient.sseData(body)) {
            if (data.equals("[DONE]")) {
                throw new AssertionError("Gemini streams have no [DONE]: " + body);
            }
            chunks.add(TestClient.json(data));
        }
        return chunks;
    }

    /** The text of all non-thought text parts of the given responses, concatenated. */
    static String text(List<JsonNode> responses) {
        StringBuilder sb = new StringBuilder();
        for (JsonNode r : responses) {
            for (JsonNode part : r.at("/candidates/0/content/parts")) {
                if (part.has("text") && !part.path("thought").asBoolean(false)) {
                    sb.append(part.get("text").asText());
                }
            }
        }
        return sb.toString();
    }
}
