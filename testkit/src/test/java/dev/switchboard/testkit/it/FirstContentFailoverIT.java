package dev.switchboard.testkit.it;

import static dev.switchboard.testkit.GatewayConfigSupport.BREAKER_OFF;
import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.provider;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.core.http.StreamResponse;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.SseStream;
import dev.switchboard.testkit.TestGateway;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Failover holds until the first content, streamed or not (docs/contracts.md §1, §2). A caller who wants the
 * whole answer is served from a streamed upstream call, so a provider that accepts the request and then
 * says nothing is left after its first-byte deadline, not after the total one. A stream is committed to a
 * target only at its first content: an upstream that sends {@code message_start} and then fails is left
 * for the next target, and the client, whatever its format, sees one clean answer.
 *
 * <p>Timing is asserted only as a generous outer bound far below the alternative it rules out (the
 * provider's 20-second total); what is asserted exactly is what happened: the attempts, their order, and
 * what the upstream was asked.
 */
class FirstContentFailoverIT {
    /** The hanging provider's total deadline: the old behaviour waited this long for a non-streamed answer. */
    private static final Duration HUNG_PROVIDER_TOTAL = Duration.ofSeconds(20);
    /** first_byte (500 ms) plus a margin generous enough for a busy machine, still far below the total. */
    private static final Duration WITHIN_FIRST_BYTE_AND_MARGIN = Duration.ofSeconds(8);

    private static final String CONFIG = TestGateway.DEFAULT_HEADER
            + providers(
                    provider("quick", "openai", "${UPSTREAM_OPENAI}", "{connect: 1s, first_byte: 500ms, idle: 1s, total: 20s}",
                            ItSupport.UPSTREAM_KEY),
                    // its failing targets are asked on purpose, test after test
                    provider("claude", "anthropic", "${UPSTREAM}", "{connect: 1s, first_byte: 3s, idle: 3s, total: 20s}",
                            ItSupport.UPSTREAM_KEY) + BREAKER_OFF,
                    provider("fake", "openai", "${UPSTREAM_OPENAI}", "{connect: 1s, first_byte: 3s, idle: 3s, total: 20s}",
                            ItSupport.UPSTREAM_KEY))
            + models(
                    model("hang-then-rescue").route("quick/up-stuck-hang", "fake/up-rescue"),
                    model("start-then-fail").route("claude/claude-startfail", "fake/up-next"));

    private static TestGateway gateway;
    private static OpenAIClient client;

    @BeforeAll
    static void start() {
        gateway = TestGateway.start(CONFIG);
        client = ItSupport.client(gateway);
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @BeforeEach
    void script() {
        gateway.upstream().reset();
        gateway.upstream().requireKey(ItSupport.UPSTREAM_KEY);
        // Anthropic's stream opening, a keep-alive, then an overloaded error: no content at all
        gateway.upstream().script("claude-startfail", (request, exchange) -> {
            SseStream sse = exchange.openSse(200);
            sse.event("message_start", """
                    {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant",\
                    "model":"claude-startfail","content":[],"stop_reason":null,"stop_sequence":null,\
                    "usage":{"input_tokens":12,"output_tokens":1}}}""");
            sse.event("ping", "{\"type\": \"ping\"}");
            sse.event("error", "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}");
            sse.end();
        });
    }

    private static Duration since(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    @Test
    void aWholeAnswerWhoseFirstProviderHangsComesFromTheSecondAfterTheFirstByteDeadline() {
        long start = System.nanoTime();
        ChatCompletion completion = client.chat().completions().create(ItSupport.ask("hang-then-rescue", "hello"));
        Duration took = since(start);

        assertThat(completion.choices().getFirst().message().content().orElseThrow()).isEqualTo(
                "Hello from up-rescue! You said: hello");
        assertThat(completion.model()).isEqualTo("hang-then-rescue");
        assertThat(ItSupport.upstreamModels(gateway)).containsExactly("up-stuck-hang", "up-rescue");
        assertThat(gateway.upstream().received()).as("both providers were called streamed")
                .allSatisfy(r -> assertThat(r.json().path("stream").asBoolean()).isTrue());
        assertThat(took).isLessThan(WITHIN_FIRST_BYTE_AND_MARGIN).isLessThan(HUNG_PROVIDER_TOTAL);
    }

    @Test
    void aStreamWhoseFirstProviderHangsComesFromTheSecondAfterTheFirstByteDeadline() {
        StringBuilder text = new StringBuilder();
        long start = System.nanoTime();
        try (StreamResponse<ChatCompletionChunk> s = client.chat().completions()
                .createStreaming(ItSupport.ask("hang-then-rescue", "hello"))) {
            s.stream().forEach(c -> c.choices().forEach(ch -> ch.delta().content().ifPresent(text::append)));
        }
        Duration took = since(start);

        assertThat(text.toString()).isEqualTo("Hello from up-rescue! You said: hello");
        assertThat(ItSupport.upstreamModels(gateway)).containsExactly("up-stuck-hang", "up-rescue");
        assertThat(took).isLessThan(WITHIN_FIRST_BYTE_AND_MARGIN);
    }

    @Test
    void aWholeAnswerIsServedFromTheSameStreamAfterAStartWithoutContent() {
        ChatCompletion completion = client.chat().completions().create(ItSupport.ask("start-then-fail", "hello"));

        assertThat(completion.choices().getFirst().message().content().orElseThrow()).isEqualTo(
                "Hello from up-next! You said: hello");
        assertThat(ItSupport.upstreamModels(gateway)).containsExactly("claude-startfail", "up-next");
    }

    /** A streamed request in one client format, and how to find the answer's text in what came back. */
    record Format(String name, String path, Map<String, String> headers, String body) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> formats() {
        String messages = "[{\"role\": \"user\", \"content\": \"hello\"}]";
        String contents = "{\"contents\": [{\"role\": \"user\", \"parts\": [{\"text\": \"hello\"}]}]}";
        return Stream.of(
                Arguments.of(new Format("chat-completions", "/v1/chat/completions", Map.of(),
                        "{\"model\": \"start-then-fail\", \"stream\": true, \"messages\": " + messages + "}")),
                Arguments.of(new Format("messages", "/v1/messages", Map.of("anthropic-version", "2023-06-01"),
                        "{\"model\": \"start-then-fail\", \"stream\": true, \"max_tokens\": 100, \"messages\": " + messages + "}")),
                Arguments.of(new Format("content-parts (SSE)", "/v1beta/models/start-then-fail:streamGenerateContent?alt=sse",
                        Map.of(), contents)),
                Arguments.of(new Format("content-parts (JSON array)", "/v1beta/models/start-then-fail:streamGenerateContent",
                        Map.of(), contents)),
                Arguments.of(new Format("responses", "/v1/responses", Map.of(),
                        "{\"model\": \"start-then-fail\", \"stream\": true, \"input\": \"hello\"}")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void aStreamWhoseFirstTargetFailsAfterItsStartButBeforeContentIsAnsweredByTheNextTarget(Format format) {
        Map<String, String> headers = new HashMap<>(ItSupport.bearer(gateway.apiKey()));
        headers.putAll(format.headers());
        HttpResponse<String> response = ItSupport.post(gateway, format.path(), headers, format.body());

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        String body = response.body();
        assertThat(body).as("no in-band error: the failed start never reached the client")
                .doesNotContain("Overloaded").doesNotContain("event: error").doesNotContain("response.failed")
                .doesNotContain("\"error\":{").doesNotContain("\"error\": {");
        assertThat(joinedText(body)).isEqualTo("Hello from up-next! You said: hello");
        assertThat(ItSupport.upstreamModels(gateway)).containsExactly("claude-startfail", "up-next");
        List<RecordedRequest> received = gateway.upstream().received();
        assertThat(received.getFirst().path()).isEqualTo("/v1/messages");
        assertThat(received.getLast().path()).isEqualTo("/v1/chat/completions");
    }

    /** The answer text as the client received it, whatever the format: every text fragment in order. */
    private static String joinedText(String body) {
        StringBuilder text = new StringBuilder();
        List<JsonNode> events = body.trim().startsWith("[")
                ? iterate(ItSupport.json(body))
                : ItSupport.sseData(body).stream().filter(d -> !d.equals("[DONE]")).map(ItSupport::json).toList();
        for (JsonNode e : events) {
            e.findValues("content").forEach(c -> {
                if (c.isTextual()) {
                    text.append(c.asText());
                }
            });
            if (e.path("type").asText().equals("content_block_delta")) {
                text.append(e.at("/delta/text").asText());
            }
            if (e.path("type").asText().equals("response.output_text.delta")) {
                text.append(e.path("delta").asText());
            }
            e.path("candidates").forEach(c -> c.at("/content/parts").forEach(p -> text.append(p.path("text").asText())));
        }
        return text.toString();
    }

    private static List<JsonNode> iterate(JsonNode array) {
        List<JsonNode> out = new java.util.ArrayList<>();
        array.forEach(out::add);
        return out;
    }
}
