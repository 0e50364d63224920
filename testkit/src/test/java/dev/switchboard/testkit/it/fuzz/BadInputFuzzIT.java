package dev.switchboard.testkit.it.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.testkit.GatewayExtension;
import dev.switchboard.testkit.TestGateway;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Bad input of every kind, generated from valid requests of each chat format ({@link RequestMutator}, seeded, so
 * a run is reproducible): whatever a caller sends, the gateway answers below 500, errors come in the format's own
 * envelope, no message quotes a Java class or a library's option name, and a 400 about a well-formed JSON body
 * names the field ({@code param}).
 *
 * <p>{@value #DEFAULT_CASES} cases per endpoint in the normal build; {@code -Dswitchboard.fuzz.cases=N} for more and
 * {@code -Dswitchboard.fuzz.seed=S} for another corpus.
 */
class BadInputFuzzIT {
    static final int DEFAULT_CASES = 1000;
    private static final int CASES = Integer.getInteger("switchboard.fuzz.cases", DEFAULT_CASES);
    private static final long SEED = Long.getLong("switchboard.fuzz.seed", 20261123L);
    private static final String UPSTREAM_KEY = "sk-upstream-fuzz-0123456789";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

    @RegisterExtension
    static final GatewayExtension GATEWAY = new GatewayExtension(FuzzGateway.config(UPSTREAM_KEY));

    private static TestGateway gateway;
    private static HttpClient http;

    /** Java types, stack frames and library switches that must never reach a caller. */
    private static final List<Pattern> INTERNALS = List.of(
            Pattern.compile("\\b(com|org|io|java|javax|jdk|sun|dev)\\.[a-z]+\\.[A-Za-z]"),
            Pattern.compile("[A-Z][A-Za-z]*(Exception|Error)\\b(?<!invalid_request_error)"),
            Pattern.compile("\\tat "),
            Pattern.compile("(?i)jackson"),
            Pattern.compile("JsonReadFeature|JsonWriteFeature|StreamReadConstraints|StreamReadFeature|DeserializationFeature"),
            Pattern.compile("JsonToken|START_OBJECT|END_OBJECT|START_ARRAY|END_ARRAY|VALUE_[A-Z_]+|FIELD_NAME"),
            Pattern.compile("\\b(JsonNode|ObjectNode|ArrayNode|TextNode|IntNode|LongNode|BigIntegerNode|DoubleNode|NullNode)\\b"),
            Pattern.compile("ALLOW_[A-Z_]+|getMax[A-Za-z]+\\(\\)"),
            Pattern.compile("\\bnull pointer\\b|\\bNPE\\b|index out of bounds", Pattern.CASE_INSENSITIVE));

    /** The four chat formats: where to send, which headers, a few valid seed bodies, and how errors look. */
    enum Format {
        CHAT("/v1/chat/completions"),
        MESSAGES("/v1/messages"),
        CONTENT_PARTS("/v1beta/models/fuzz-all:generateContent"),
        RESPONSES("/v1/responses");

        final String path;

        Format(String path) {
            this.path = path;
        }

        List<String> seeds() {
            return switch (this) {
                case CHAT -> List.of("""
                        {"model":"fuzz-all","messages":[{"role":"user","content":"hi"}]}""", """
                        {"model":"fuzz-all","messages":[{"role":"system","content":"be brief"},{"role":"user","content":[
                         {"type":"text","text":"what is this?"},{"type":"image_url","image_url":{"url":"data:image/png;base64,%1$s"}}]},
                         {"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":
                          {"name":"get_weather","arguments":"{\\"city\\":\\"Paris\\"}"}}]},
                         {"role":"tool","tool_call_id":"call_1","content":"sunny"}],
                         "max_tokens":100,"temperature":0.7,"top_p":0.9,"stop":["END"],"seed":7,
                         "tools":[{"type":"function","function":{"name":"get_weather","description":"weather",
                          "parameters":{"type":"object","properties":{"city":{"type":"string"}}}}}],
                         "tool_choice":"auto","models":["chat-basic"],"transforms":["middle-out"],
                         "response_format":{"type":"json_object"},"reasoning_effort":"low"}""".formatted(PNG), """
                        {"model":"fuzz-all","stream":true,"stream_options":{"include_usage":true},
                         "messages":[{"role":"user","content":"stream please"}],"max_completion_tokens":50}""");
                case MESSAGES -> List.of("""
                        {"model":"fuzz-all","max_tokens":100,"messages":[{"role":"user","content":"hi"}]}""", """
                        {"model":"fuzz-all","max_tokens":100,"system":[{"type":"text","text":"be brief"}],
                         "messages":[{"role":"user","content":[{"type":"text","text":"what is this?"},
                          {"type":"image","source":{"type":"base64","media_type":"image/png","data":"%1$s"}}]},
                          {"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Paris"}}]},
                          {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"sunny"}]}],
                         "tools":[{"name":"get_weather","description":"weather","input_schema":{"type":"object",
                          "properties":{"city":{"type":"string"}}}}],"tool_choice":{"type":"auto"},
                         "stop_sequences":["END"],"temperature":0.5,"top_k":40,"fallbacks":[{"model":"chat-basic"}],
                         "thinking":{"type":"enabled","budget_tokens":1024}}""".formatted(PNG), """
                        {"model":"fuzz-all","max_tokens":50,"stream":true,"messages":[{"role":"user","content":"stream"}]}""");
                case CONTENT_PARTS -> List.of("""
                        {"contents":[{"role":"user","parts":[{"text":"hi"}]}]}""", """
                        {"contents":[{"role":"user","parts":[{"text":"what is this?"},{"inlineData":{"mimeType":"image/png","data":"%1$s"}}]},
                          {"role":"model","parts":[{"functionCall":{"name":"get_weather","args":{"city":"Paris"}}}]},
                          {"role":"user","parts":[{"functionResponse":{"name":"get_weather","response":{"result":"sunny"}}}]}],
                         "systemInstruction":{"parts":[{"text":"be brief"}]},
                         "generationConfig":{"temperature":0.5,"maxOutputTokens":100,"topP":0.9,"topK":40,"stopSequences":["END"],
                          "responseMimeType":"application/json"},
                         "tools":[{"functionDeclarations":[{"name":"get_weather","description":"weather",
                          "parameters":{"type":"object","properties":{"city":{"type":"string"}}}}]}],
                         "toolConfig":{"functionCallingConfig":{"mode":"AUTO"}},"safetySettings":[]}""".formatted(PNG));
                case RESPONSES -> List.of("""
                        {"model":"fuzz-all","input":"hi","store":false}""", """
                        {"model":"fuzz-all","instructions":"be brief","store":false,"input":[
                          {"role":"user","content":[{"type":"input_text","text":"what is this?"},
                           {"type":"input_image","image_url":"data:image/png;base64,%1$s"}]},
                          {"type":"function_call","call_id":"call_1","name":"get_weather","arguments":"{\\"city\\":\\"Paris\\"}"},
                          {"type":"function_call_output","call_id":"call_1","output":"sunny"}],
                         "tools":[{"type":"function","name":"get_weather","description":"weather",
                          "parameters":{"type":"object","properties":{"city":{"type":"string"}}}}],
                         "max_output_tokens":100,"temperature":0.5,"top_p":0.9,"reasoning":{"effort":"low"},
                         "text":{"format":{"type":"json_object"}}}""".formatted(PNG), """
                        {"model":"fuzz-all","input":"stream","stream":true,"store":false}""");
            };
        }

        /** The problems with an error answer of this format, if any. */
        Optional<String> envelopeProblem(int status, JsonNode body) {
            JsonNode error = body.path("error");
            if (!error.isObject()) {
                return Optional.of("no error object");
            }
            if (!error.path("message").isTextual() || error.path("message").asText().isBlank()) {
                return Optional.of("no message");
            }
            if (!error.path("type").isTextual() || !error.has("param")) {
                return Optional.of("no type or no param");
            }
            if (!error.path("code").asText().equals(Integer.toString(status))) {
                return Optional.of("code " + error.path("code") + " is not the status " + status);
            }
            return switch (this) {
                case MESSAGES -> body.path("type").asText().equals("error") ? Optional.empty() : Optional.of("no top-level type: error");
                case CONTENT_PARTS -> error.path("status").isTextual() ? Optional.empty() : Optional.of("no Google status word");
                default -> body.has("type") ? Optional.of("a top-level type the OpenAI envelope does not have") : Optional.empty();
            };
        }
    }

    @BeforeAll
    static void connect() {
        gateway = GATEWAY.gateway();
        gateway.upstream().requireKey(UPSTREAM_KEY);
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    }

    record Outcome(RequestMutator.Case sent, int status, String body) {
    }

    @ParameterizedTest
    @EnumSource(Format.class)
    void noBadInputGetsA5xxAForeignEnvelopeOrAnInternalMessage(Format format) throws Exception {
        List<JsonNode> seeds = new ArrayList<>();
        for (String s : format.seeds()) {
            JsonNode seed = JSON.readTree(s);
            Outcome ok = send(format, new RequestMutator.Case(JSON.writeValueAsBytes(seed), true, false, "the seed"));
            assertThat(ok.status()).as("the %s seed is a valid request: %s", format, ok.body()).isEqualTo(200);
            seeds.add(seed);
        }
        RequestMutator mutator = new RequestMutator(SEED + format.ordinal());
        List<RequestMutator.Case> cases = new ArrayList<>(CASES);
        for (int i = 0; i < CASES; i++) {
            cases.add(mutator.next(seeds.get(i % seeds.size())));
        }

        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        Map<Integer, AtomicInteger> statuses = new ConcurrentSkipListMap<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            List<Future<?>> running = new ArrayList<>();
            for (RequestMutator.Case c : cases) {
                running.add(pool.submit(() -> {
                    Outcome o = send(format, c);
                    statuses.computeIfAbsent(o.status(), k -> new AtomicInteger()).incrementAndGet();
                    judge(format, o).ifPresent(p -> problems.add(p + "\n    case: " + c.description() + "\n    answer: "
                            + o.status() + " " + shorten(o.body())));
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get();
            }
        }

        System.out.println(format + ": " + CASES + " cases (seed " + SEED + "), answers by status " + statuses);
        // one example of each kind of problem, so a report stays readable
        Map<String, String> kinds = new LinkedHashMap<>();
        problems.forEach(p -> kinds.putIfAbsent(p.substring(0, Math.min(60, p.indexOf('\n') < 0 ? p.length() : p.indexOf('\n'))), p));
        assertThat(kinds.values()).as("%d of %d %s cases (seed %d), one of each kind", problems.size(), CASES, format, SEED)
                .isEmpty();
    }

    /** What is wrong with one answer to a bad request, if anything (shared with {@link BadInputCorpusIT}). */
    static Optional<String> judge(Format format, Outcome o) {
        if (o.status() >= 500) {
            return Optional.of("a " + o.status());
        }
        for (String message : messages(o)) {
            for (Pattern p : INTERNALS) {
                if (p.matcher(message).find()) {
                    return Optional.of("an internal name (" + p.pattern() + ") in: " + message);
                }
            }
        }
        if (o.status() < 400) {
            return Optional.empty();
        }
        JsonNode body;
        try {
            body = JSON.readTree(o.body());
        } catch (IOException e) {
            return Optional.of("an error body that is not JSON");
        }
        if (body == null) {
            return Optional.of("an empty error body");
        }
        Optional<String> envelope = format.envelopeProblem(o.status(), body);
        if (envelope.isPresent()) {
            return envelope;
        }
        boolean fieldError = o.status() == 400 && o.sent().validJson() && !o.sent().rootReplaced();
        if (fieldError && body.path("error").path("param").asText("").isBlank()) {
            return Optional.of("a 400 about a well-formed body without param");
        }
        return Optional.empty();
    }

    /** Every error message in the answer: the envelope's, or those of in-band stream errors. */
    private static List<String> messages(Outcome o) {
        List<String> out = new ArrayList<>();
        if (o.status() >= 400) {
            try {
                JsonNode body = JSON.readTree(o.body());
                if (body != null) {
                    out.add(body.path("error").path("message").asText(""));
                }
            } catch (IOException e) {
                out.add(o.body());
            }
            return out;
        }
        for (String line : o.body().split("\n")) {
            if (line.contains("\"error\"")) {
                out.add(line);
            }
        }
        return out;
    }

    private static Outcome send(Format format, RequestMutator.Case c) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + format.path))
                .timeout(Duration.ofSeconds(60))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(c.body()));
        for (Map.Entry<String, String> h : Map.of("authorization", "Bearer " + gateway.apiKey(),
                "anthropic-version", "2023-06-01").entrySet()) {
            b.header(h.getKey(), h.getValue());
        }
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            return new Outcome(c, r.statusCode(), r.body());
        } catch (IOException e) {
            return new Outcome(c, 599, "no answer: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String shorten(String s) {
        return s.length() > 400 ? s.substring(0, 400) + "..." : s;
    }
}
