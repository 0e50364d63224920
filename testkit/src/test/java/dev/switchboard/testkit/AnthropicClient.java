package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;

/** Anthropic-shaped requests to a fake upstream, and strict parsing of its named-event streams. */
final class AnthropicClient {

    static final String VERSION = "2023-06-01";

    // Anthropic SSE: an event line and one data line per event, ended by a blank line; nothing else.
    private static final Pattern SSE_EVENT = Pattern.compile("event: ([^\n]*)\ndata: ([^\n]*)\n\n");

    /** One named event: its {@code event:} name and parsed data. */
    record Event(String name, JsonNode data) {
        String type() {
            return data.path("type").asText();
        }
    }

    private final TestClient client;

    AnthropicClient(FakeUpstream upstream) {
        this.client = new TestClient(upstream);
    }

    /** A messages body with one user message and {@code max_tokens: 1024}. */
    static ObjectNode message(String model, String userText) {
        ObjectNode body = TestClient.JSON.createObjectNode().put("model", model).put("max_tokens", 1024);
        body.putArray("messages").addObject().put("role", "user").put("content", userText);
        return body;
    }

    HttpRequest.Builder request(JsonNode body) {
        return client.request(FakeAnthropicDialect.MESSAGES_PATH, body.toString()).header("anthropic-version", VERSION);
    }

    HttpResponse<String> send(JsonNode body) throws IOException, InterruptedException {
        return client.send(request(body).build());
    }

    <T> HttpResponse<T> send(JsonNode body, HttpResponse.BodyHandler<T> handler) throws IOException, InterruptedException {
        return client.send(request(body).build(), handler);
    }

    HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        return client.send(request);
    }

    /** A successful plain answer's body, failing on any other status. */
    JsonNode answer(JsonNode body) throws IOException, InterruptedException {
        HttpResponse<String> response = send(body);
        if (response.statusCode() != 200) {
            throw new AssertionError("expected 200, got " + response.statusCode() + ": " + response.body());
        }
        return TestClient.json(response.body());
    }

    /** The events of a successful streamed answer. */
    List<Event> stream(ObjectNode body) throws IOException, InterruptedException {
        HttpResponse<String> response = send(body.put("stream", true));
        if (response.statusCode() != 200) {
            throw new AssertionError("expected 200, got " + response.statusCode() + ": " + response.body());
        }
        return events(response.body());
    }

    /** The events of an SSE body, failing unless it consists of nothing but named events whose name is their type. */
    static List<Event> events(String body) {
        List<Event> events = new ArrayList<>();
        for (MatchResult m : TestClient.wholeSse(SSE_EVENT, body)) {
            Event event = new Event(m.group(1), TestClient.json(m.group(2)));
            if (!event.name().equals(event.type())) {
                throw new AssertionError("event name " + event.name() + " differs from its type " + event.type());
            }
            events.add(event);
        }
        return events;
    }

    /** The final message an SDK would build from the events: blocks with their deltas applied. */
    static JsonNode accumulate(List<Event> events) {
        ObjectNode message = TestClient.JSON.createObjectNode();
        StringBuilder[] inputs = new StringBuilder[64];
        for (Event e : events) {
            JsonNode d = e.data();
            switch (e.type()) {
                case "message_start" -> message.setAll((ObjectNode) d.get("message").deepCopy());
                case "content_block_start" -> message.withArray("content").add(d.get("content_block").deepCopy());
                case "content_block_delta" -> {
                    int i = d.get("index").asInt();
                    ObjectNode block = (ObjectNode) message.withArray("content").get(i);
                    JsonNode delta = d.get("delta");
                    switch (delta.get("type").asText()) {
                        case "text_delta" -> block.put("text", block.get("text").asText() + delta.get("text").asText());
                        case "thinking_delta" -> block.put("thinking", block.get("thinking").asText() + delta.get("thinking").asText());
                        case "signature_delta" -> block.put("signature", delta.get("signature").asText());
                        case "input_json_delta" -> {
                            inputs[i] = inputs[i] == null ? new StringBuilder() : inputs[i];
                            inputs[i].append(delta.get("partial_json").asText());
                        }
                        default -> throw new AssertionError("unknown delta " + delta);
                    }
                }
                case "content_block_stop" -> {
                    int i = d.get("index").asInt();
                    if (inputs[i] != null) {
                        ((ObjectNode) message.withArray("content").get(i)).set("input", TestClient.json(inputs[i].toString()));
                    }
                }
                case "message_delta" -> {
                    message.setAll((ObjectNode) d.get("delta").deepCopy());
                    ((ObjectNode) message.get("usage")).setAll((ObjectNode) d.get("usage").deepCopy());
                }
                default -> { }
            }
        }
        return message;
    }
}
