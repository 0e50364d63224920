package dev.switchboard.testkit;

import static dev.switchboard.testkit.GeminiTestClient.body;
import static dev.switchboard.testkit.GeminiTestClient.sseChunks;
import static dev.switchboard.testkit.GeminiTestClient.text;
import static dev.switchboard.testkit.GeminiTestClient.withThoughts;
import static dev.switchboard.testkit.GeminiTestClient.withWeatherTool;
import static dev.switchboard.testkit.TestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class GeminiStreamTest extends FakeUpstreamSupport {
    private final GeminiTestClient client = new GeminiTestClient(upstream);

    @Test
    void altSseStreamsOneResponseShapedChunkPerWord() throws Exception {
        HttpResponse<String> response = client.streamSse("fake-model", body("Say hi"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/event-stream"));
        List<JsonNode> chunks = sseChunks(response.body());
        assertThat(chunks).hasSize(7);
        assertThat(text(chunks)).isEqualTo("Hello from fake-model! You said: Say hi");
        for (JsonNode chunk : chunks.subList(0, chunks.size() - 1)) {
            assertThat(chunk.at("/candidates/0/finishReason").isMissingNode()).isTrue();
            assertThat(chunk.at("/usageMetadata/promptTokenCount").asInt()).as("Google repeats usage").isEqualTo(2);
            assertThat(chunk.get("modelVersion").asText()).isEqualTo("fake-model");
        }
        JsonNode last = chunks.getLast();
        assertThat(last.at("/candidates/0/finishReason").asText()).isEqualTo("STOP");
        assertThat(last.at("/usageMetadata/totalTokenCount").asInt()).isEqualTo(9);
    }

    @Test
    void withoutAltTheStreamIsOneJsonArrayWithTheSameChunks() throws Exception {
        HttpResponse<String> sse = client.streamSse("fake-model", body("Say hi"));
        HttpResponse<String> array = client.streamArray("fake-model", body("Say hi"));

        assertThat(array.statusCode()).isEqualTo(200);
        assertThat(array.headers().firstValue("content-type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
        JsonNode parsed = json(array.body());
        assertThat(parsed.isArray()).isTrue();
        List<JsonNode> elements = new ArrayList<>();
        parsed.forEach(elements::add);
        List<JsonNode> fromSse = sseChunks(sse.body());
        assertThat(elements).hasSameSizeAs(fromSse);
        assertThat(text(elements)).isEqualTo(text(fromSse));
    }

    @Test
    void theArrayIsWrittenPieceByPiece() throws Exception {
        String request = RawConnection.post("/v1beta/models/fake-model:streamGenerateContent", body("one two").toString(),
                "connection: close");
        List<String> chunks = new ArrayList<>();
        try (Socket socket = new Socket("127.0.0.1", upstream.port())) {
            socket.setSoTimeout(5000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
            String raw = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(raw).contains("transfer-encoding: chunked");
            String rest = raw.substring(raw.indexOf("\r\n\r\n") + 4);
            for (int size = sizeLine(rest); size > 0; size = sizeLine(rest)) {
                int start = rest.indexOf("\r\n") + 2;
                chunks.add(rest.substring(start, start + size));
                rest = rest.substring(start + size + 2);
            }
        }
        // One HTTP chunk per element (seven words): "[" with the first, "," before each next, "]" alone at the end.
        assertThat(chunks).hasSize(8);
        assertThat(chunks.getFirst()).startsWith("[{");
        assertThat(chunks.subList(1, 7)).allSatisfy(c -> assertThat(c).startsWith(",\r\n{"));
        assertThat(chunks.getLast()).isEqualTo("]");
        assertThat(json(String.join("", chunks))).hasSize(7);
    }

    private static int sizeLine(String rest) {
        return Integer.parseInt(rest.substring(0, rest.indexOf("\r\n")), 16);
    }

    @Test
    void thoughtsStreamFirstAndTheCallChunkCarriesTheSignature() throws Exception {
        List<JsonNode> chunks = sseChunks(client.streamSse("fake-model", withThoughts(withWeatherTool(body("Weather?")))).body());

        assertThat(chunks.getFirst().at("/candidates/0/content/parts/0/thought").asBoolean()).isTrue();
        JsonNode last = chunks.getLast();
        JsonNode part = last.at("/candidates/0/content/parts/0");
        assertThat(part.at("/functionCall/name").asText()).isEqualTo("get_weather");
        assertThat(part.get("thoughtSignature").asText()).isNotEmpty();
        assertThat(last.at("/candidates/0/finishReason").asText()).isEqualTo("STOP");
        assertThat(last.at("/usageMetadata/thoughtsTokenCount").asInt()).isEqualTo(chunks.size() - 1);
    }

    @Test
    void midfailSendsAnInBandErrorAfterTwoChunksAndEndsCleanly() throws Exception {
        List<JsonNode> chunks = sseChunks(client.streamSse("fake-midfail", body("one two three")).body());

        assertThat(chunks).hasSize(3);
        assertThat(text(chunks.subList(0, 2))).isEqualTo("Hello from");
        JsonNode error = chunks.get(2).get("error");
        assertThat(chunks.get(2).has("candidates")).isFalse();
        assertThat(error.get("code").asInt()).isEqualTo(500);
        assertThat(error.get("status").asText()).isEqualTo("INTERNAL");
    }

    @Test
    void midfailInTheArrayStreamIsItsLastElement() throws Exception {
        JsonNode array = json(client.streamArray("fake-midfail", body("one two three")).body());

        assertThat(array).hasSize(3);
        assertThat(array.get(2).at("/error/status").asText()).isEqualTo("INTERNAL");
    }

    @Test
    void emptyStreamEndsBeforeItsFirstChunk() throws Exception {
        HttpResponse<String> response = client.streamSse("fake-empty", body("hi"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEmpty();
    }
}
