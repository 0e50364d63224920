package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A plain JDK HTTP client pointed at a fake upstream, plus request builders and SSE parsing for tests. */
final class TestClient {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(15); // generous: CI machines can be heavily loaded

    // SSE as OpenAI sends it: only data lines, each event ended by a blank line, nothing else.
    private static final Pattern SSE_EVENT = Pattern.compile("data: ([^\n]*)\n\n");

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();
    private final FakeUpstream upstream;

    TestClient(FakeUpstream upstream) {
        this.upstream = upstream;
    }

    /** A chat request body with one user message. */
    static ObjectNode chat(String model, String userText) {
        ObjectNode body = JSON.createObjectNode().put("model", model);
        body.putArray("messages").addObject().put("role", "user").put("content", userText);
        return body;
    }

    static ObjectNode streaming(ObjectNode body, boolean includeUsage) {
        body.put("stream", true);
        if (includeUsage) {
            body.putObject("stream_options").put("include_usage", true);
        }
        return body;
    }

    HttpRequest.Builder request(String path, String body) {
        return HttpRequest.newBuilder(URI.create(upstream.baseUrl() + path))
                .timeout(DEFAULT_TIMEOUT)
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
            throws IOException, InterruptedException {
        return http.send(request, handler);
    }

    HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
        return send(request(path, body).build());
    }

    HttpResponse<String> chatCompletion(JsonNode body) throws IOException, InterruptedException {
        return post("/v1/chat/completions", body.toString());
    }

    static JsonNode json(String text) {
        return JsonSupport.json(text);
    }

    /**
     * The data payloads of an SSE body, failing unless the body consists of nothing but
     * {@code data: ...\n\n} events.
     */
    static List<String> sseData(String body) {
        List<String> data = new ArrayList<>();
        wholeSse(SSE_EVENT, body).forEach(m -> data.add(m.group(1)));
        return data;
    }

    /** The matches of {@code event} that make up the whole of an SSE {@code body}; fails at any byte between or after them. */
    static List<MatchResult> wholeSse(Pattern event, String body) {
        List<MatchResult> found = new ArrayList<>();
        Matcher matcher = event.matcher(body);
        int end = 0;
        while (matcher.find()) {
            if (matcher.start() != end) {
                throw new AssertionError("unexpected bytes between SSE events at " + end + ": " + body);
            }
            found.add(matcher.toMatchResult());
            end = matcher.end();
        }
        if (end != body.length()) {
            throw new AssertionError("unexpected bytes after the last SSE event: " + body.substring(end));
        }
        return found;
    }

    /** The JSON chunks of an OpenAI stream, failing unless {@code [DONE]} is its last event and only there. */
    static List<JsonNode> chunks(String body) {
        List<String> data = sseData(body);
        if (data.isEmpty() || !data.getLast().equals("[DONE]")) {
            throw new AssertionError("stream does not end with [DONE]: " + body);
        }
        List<String> events = data.subList(0, data.size() - 1);
        if (events.contains("[DONE]")) {
            throw new AssertionError("[DONE] before the end: " + body);
        }
        return events.stream().map(TestClient::json).toList();
    }
}
