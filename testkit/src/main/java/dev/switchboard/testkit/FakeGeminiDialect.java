package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Google's Gemini API as the fake speaks it: {@code POST /v1beta/models/{m}:generateContent} and
 * {@code :streamGenerateContent} (with {@code ?alt=sse} server-sent events, without it one JSON array
 * written piece by piece over a chunked body), and {@code GET /v1beta/models}. The key is read from
 * {@code x-goog-api-key} or {@code ?key=}. Errors use Google's envelope
 * {@code {"error": {code, message, status}}} ({@code -fail500} INTERNAL, {@code -fail429}
 * RESOURCE_EXHAUSTED, {@code -fail503} UNAVAILABLE...). A rejected key gets what Google sends for one:
 * 400 INVALID_ARGUMENT with reason {@code API_KEY_INVALID}, never a 401.
 *
 * <p>Answers come from the shared {@link AnswerGenerator}; thinking ({@code includeThoughts: true} or
 * {@code -reasoning}) adds thought parts and a signature on the first function call (see
 * {@link GeminiRender}). Wire-shaped faults: {@code -midfail} streams two chunks and then an element with
 * a top-level {@code error} (a data line, or an array element) and ends the body properly; a plain answer
 * gets half its body and a reset. {@code -empty} ends a stream before its first chunk, or answers 200
 * with an empty body. {@code -strictsig} validates thought signatures like Gemini 3
 * ({@link GeminiRequest}).
 */
final class FakeGeminiDialect implements FakeDialect {

    static final String MODELS_PATH = "/v1beta/models";
    private static final Pattern GENERATE = Pattern.compile("/v1beta/models/([^/:]+):(generateContent|streamGenerateContent)");
    private static final String STRICT_SIGNATURES = "strictsig";
    private static final int CHUNKS_BEFORE_ERROR = 2;

    private final Settings settings;
    private final AnswerGenerator generator;
    private final AtomicLong responseSequence = new AtomicLong();

    FakeGeminiDialect(Settings settings, AnswerGenerator generator) {
        this.settings = settings;
        this.generator = generator;
    }

    @Override
    public boolean serves(RecordedRequest request) {
        return request.method().equals("POST") && GENERATE.matcher(request.path()).matches()
                || request.method().equals("GET") && request.path().equals(MODELS_PATH);
    }

    @Override
    public Optional<String> apiKey(RecordedRequest request) {
        return request.header("x-goog-api-key").map(String::trim).or(() -> queryParameter(request, "key"));
    }

    @Override
    public ObjectNode errorEnvelope(int status, String message) {
        return GeminiRender.error(status, message);
    }

    @Override
    public void sendError(RawExchange exchange, int status, String message) throws IOException {
        if (status == 401) {
            exchange.respondJson(400, GeminiRender.invalidKey());
            return;
        }
        FakeDialect.super.sendError(exchange, status, message);
    }

    @Override
    public void serve(RecordedRequest request, Scenario scenario, RawExchange exchange) throws IOException {
        if (request.path().equals(MODELS_PATH)) {
            exchange.respondJson(200, modelList(settings.models()));
            return;
        }
        Matcher path = GENERATE.matcher(request.path());
        if (!path.matches()) {
            throw new IllegalStateException("serves() accepted " + request.path());
        }
        String model = URLDecoder.decode(path.group(1), StandardCharsets.UTF_8);
        GeminiRequest gemini;
        try {
            gemini = GeminiRequest.parse(model, request.json(), hasSegment(model, STRICT_SIGNATURES));
        } catch (GeminiRequest.Invalid e) {
            exchange.respondJson(400, GeminiRender.error(400, e.getMessage()));
            return;
        }
        Reply reply = generator.reply(gemini.prompt(), scenario);
        GeminiRender render = new GeminiRender("fake-resp-" + responseSequence.incrementAndGet(), model,
                !reply.answer().reasoning().isEmpty());
        if (path.group(2).equals("streamGenerateContent")) {
            boolean sse = queryParameter(request, "alt").filter("sse"::equals).isPresent();
            stream(render.chunks(reply), sse, scenario, exchange);
        } else {
            exchange.respondWhole(Map.of("content-type", "application/json; charset=UTF-8"), TestkitJson.bytes(render.response(reply)),
                    scenario.has(Scenario.Flag.MIDFAIL), scenario.has(Scenario.Flag.EMPTY));
        }
    }

    private static void stream(List<ObjectNode> chunks, boolean sse, Scenario scenario, RawExchange exchange)
            throws IOException {
        Map<String, String> headers = sse ? Map.of() : Map.of("content-type", "application/json; charset=UTF-8");
        if (scenario.has(Scenario.Flag.EMPTY)) {
            Map<String, String> closing = new HashMap<>(headers);
            closing.put("connection", "close");
            exchange.openSse(200, closing).end();
            return;
        }
        List<ObjectNode> elements = chunks;
        if (scenario.has(Scenario.Flag.MIDFAIL)) {
            elements = new ArrayList<>(chunks.subList(0, Math.min(CHUNKS_BEFORE_ERROR, chunks.size())));
            elements.add(GeminiRender.error(500, "Fake upstream: scripted failure in the middle of the stream."));
        }
        SseStream out = exchange.openSse(200, headers);
        for (int i = 0; i < elements.size(); i++) {
            String json = TestkitJson.text(elements.get(i));
            if (sse) {
                out.data(json);
            } else {
                out.raw((i == 0 ? "[" : ",\r\n") + json);
            }
        }
        if (!sse) {
            out.raw(elements.isEmpty() ? "[]" : "]");
        }
        out.end();
    }

    private static ObjectNode modelList(List<String> ids) {
        ObjectNode list = TestkitJson.object();
        ArrayNode models = list.putArray("models");
        for (String id : ids) {
            ObjectNode m = models.addObject().put("name", "models/" + id).put("baseModelId", id).put("version", "001")
                    .put("displayName", id).put("inputTokenLimit", 1_048_576).put("outputTokenLimit", 65_536);
            m.putArray("supportedGenerationMethods").add("generateContent").add("countTokens");
            m.put("thinking", true);
        }
        return list;
    }

    /** A query parameter, URL-decoded. */
    static Optional<String> queryParameter(RecordedRequest request, String name) {
        for (String pair : request.query().split("&")) {
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            if (URLDecoder.decode(key, StandardCharsets.UTF_8).equals(name)) {
                return Optional.of(eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return Optional.empty();
    }

    /** Whether a {@code -}-separated segment after the first is {@code segment}, as {@link Scenario} reads suffixes. */
    private static boolean hasSegment(String model, String segment) {
        String[] segments = model.split("-");
        for (int i = 1; i < segments.length; i++) {
            if (segments[i].equals(segment)) {
                return true;
            }
        }
        return false;
    }
}
