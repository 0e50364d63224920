package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * OpenAI as the fake speaks it: {@code POST /v1/chat/completions} and {@code GET /v1/models}, key in
 * {@code Authorization: Bearer}, errors in the {@code {"error":{message,type,param,code}}} envelope.
 *
 * <p>Wire-shaped faults: {@code -midfail} sends the first three chunks of the stream (role chunk and two
 * more) and resets, or for a plain answer the headers and half the body and resets; {@code -empty} sends
 * SSE headers and ends the body before any event (a plain answer gets an empty 200 body).
 */
final class FakeOpenAiDialect implements FakeDialect {

    static final String CHAT_PATH = "/v1/chat/completions";
    static final String MODELS_PATH = "/v1/models";

    // Lets the client take in the frames before the reset, so a cut after the first event is deterministic.
    private static final Duration PAUSE_BEFORE_CUT = Duration.ofMillis(50);
    private static final int FRAMES_BEFORE_CUT = 3;

    private final Settings settings;
    private final AnswerGenerator generator;
    private final AtomicLong responseSequence = new AtomicLong();

    FakeOpenAiDialect(Settings settings, AnswerGenerator generator) {
        this.settings = settings;
        this.generator = generator;
    }

    @Override
    public boolean serves(RecordedRequest request) {
        return request.method().equals("POST") && request.path().equals(CHAT_PATH)
                || request.method().equals("GET") && request.path().equals(MODELS_PATH);
    }

    @Override
    public Optional<String> apiKey(RecordedRequest request) {
        return bearer(request);
    }

    /** The key of {@code Authorization: Bearer <key>}, where OpenAI's clients put it. */
    static Optional<String> bearer(RecordedRequest request) {
        return request.header("authorization")
                .filter(value -> value.regionMatches(true, 0, "Bearer ", 0, 7))
                .map(value -> value.substring(7).trim());
    }

    @Override
    public ObjectNode errorEnvelope(int status, String message) {
        return envelope(status, message, Optional.empty());
    }

    /** The OpenAI error body; the {@code type} follows the status as OpenAI's own errors do. */
    static ObjectNode envelope(int status, String message, Optional<String> param) {
        ObjectNode body = TestkitJson.object();
        ObjectNode error = body.putObject("error").put("message", message).put("type", errorType(status));
        param.ifPresentOrElse(p -> error.put("param", p), () -> error.putNull("param"));
        if (status == 401) {
            error.put("code", "invalid_api_key");
        } else {
            error.putNull("code");
        }
        return body;
    }

    @Override
    public void serve(RecordedRequest request, Scenario scenario, RawExchange exchange) throws IOException {
        if (request.path().equals(MODELS_PATH)) {
            exchange.respondJson(200, modelList(settings.models()));
            return;
        }
        OpenAiRequest chat;
        try {
            chat = OpenAiRequest.parse(request.json());
        } catch (OpenAiRequest.Invalid e) {
            exchange.respondJson(400, envelope(400, e.getMessage(), e.param()));
            return;
        }
        Reply reply = generator.reply(chat.prompt(), scenario);
        OpenAiRender render = new OpenAiRender("chatcmpl-fake-" + responseSequence.incrementAndGet(),
                System.currentTimeMillis() / 1000, chat.prompt().model(), scenario.has(Scenario.Flag.REASONING_FIELD));
        if (chat.stream()) {
            stream(render.chunks(reply, chat.includeUsage()), scenario, exchange);
        } else {
            exchange.respondWhole(Map.of("content-type", "application/json"), TestkitJson.bytes(render.completion(reply)),
                    scenario.has(Scenario.Flag.MIDFAIL), scenario.has(Scenario.Flag.EMPTY));
        }
    }

    private static void stream(List<ObjectNode> chunks, Scenario scenario, RawExchange exchange) throws IOException {
        if (scenario.has(Scenario.Flag.EMPTY)) {
            // A clean, empty body, then the connection closes: the stream ends before its first event.
            exchange.openSse(200, Map.of("connection", "close")).end();
            return;
        }
        SseStream sse = exchange.openSse(200);
        if (scenario.has(Scenario.Flag.MIDFAIL)) {
            for (ObjectNode chunk : chunks.subList(0, Math.min(FRAMES_BEFORE_CUT, chunks.size()))) {
                sse.data(TestkitJson.text(chunk));
            }
            RawExchange.pause(PAUSE_BEFORE_CUT);
            exchange.resetConnection();
            return;
        }
        for (ObjectNode chunk : chunks) {
            sse.data(TestkitJson.text(chunk));
        }
        sse.data("[DONE]");
        sse.end();
    }

    private static ObjectNode modelList(List<String> ids) {
        ObjectNode list = TestkitJson.object().put("object", "list");
        ArrayNode data = list.putArray("data");
        for (String id : ids) {
            data.addObject().put("id", id).put("object", "model").put("created", 1_700_000_000L)
                    .put("owned_by", "switchboard-testkit");
        }
        return list;
    }

    private static String errorType(int status) {
        return switch (status) {
            case 401 -> "invalid_request_error"; // what OpenAI sends, with code invalid_api_key
            case 403 -> "permission_error";
            case 429 -> "rate_limit_error";
            case 529 -> "overloaded_error";
            default -> status >= 500 ? "server_error" : "invalid_request_error";
        };
    }
}
