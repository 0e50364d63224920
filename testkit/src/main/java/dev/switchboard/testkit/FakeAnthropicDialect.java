package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Anthropic as the fake speaks it: {@code POST /v1/messages}, key in {@code x-api-key}, the
 * {@code anthropic-version} header required, errors in the
 * {@code {"type":"error","error":{"type","message"},"request_id"}} envelope, every
 * response with a {@code request-id} header. Requests are checked as {@link AnthropicRequest} describes
 * and answered by {@link AnthropicRender}.
 *
 * <p>Beyond the shared scenario suffixes:
 * <ul>
 *   <li>{@code -reasoning} (or {@code thinking} enabled or adaptive in the request): a signed thinking block;
 *       {@code -redacted} adds a {@code redacted_thinking} block before it;
 *   <li>{@code cache_control} in the request: usage reports cache writes for prefixes seen the first time
 *       and a cache read for the longest prefix seen before ({@link AnthropicCache}); without breakpoints,
 *       {@code -cache} reports half the prompt as read;
 *   <li>{@code -midfail}: streamed, {@code message_start}, {@code ping}, the first block's start and first
 *       delta, then {@code event: error} ({@code overloaded_error}) and a clean end of the body; plain, half
 *       the body and a reset;
 *   <li>{@code -midreset}: streamed, the same four events, then a TCP reset; plain, as {@code -midfail};
 *   <li>{@code -empty}: streamed, SSE headers and a body that ends before its first event; plain, an empty
 *       200 body;
 *   <li>{@code -noprefill}: a conversation ending with an assistant turn gets 400 "This model does not
 *       support assistant message prefill."
 * </ul>
 */
final class FakeAnthropicDialect implements FakeDialect {

    static final String MESSAGES_PATH = "/v1/messages";
    static final String PREFILL_REFUSAL = "This model does not support assistant message prefill. "
            + "The conversation must end with a user message.";

    // Lets the client take in the frames before the cut, so what it saw is deterministic.
    private static final Duration PAUSE_BEFORE_CUT = Duration.ofMillis(50);
    private static final int EVENTS_BEFORE_FAULT = 4;

    private final AnswerGenerator generator;
    private final AnthropicCache cache = new AnthropicCache();
    private final AtomicLong messageSequence = new AtomicLong();
    private final AtomicLong requestSequence = new AtomicLong();

    FakeAnthropicDialect(AnswerGenerator generator) {
        this.generator = generator;
    }

    @Override
    public boolean serves(RecordedRequest request) {
        return request.method().equals("POST") && request.path().equals(MESSAGES_PATH);
    }

    @Override
    public Optional<String> apiKey(RecordedRequest request) {
        return request.header("x-api-key").map(String::trim).filter(key -> !key.isEmpty());
    }

    @Override
    public ObjectNode errorEnvelope(int status, String message) {
        ObjectNode body = TestkitJson.object().put("type", "error");
        body.putObject("error").put("type", errorType(status)).put("message", message);
        body.put("request_id", nextRequestId());
        return body;
    }

    @Override
    public void sendError(RawExchange exchange, int status, String message) throws IOException {
        ObjectNode body = errorEnvelope(status, message);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("request-id", body.get("request_id").asText());
        if (status == 429) {
            headers.put("retry-after", "1");
        }
        exchange.respondJson(status, headers, body);
    }

    @Override
    public void serve(RecordedRequest request, Scenario scenario, RawExchange exchange) throws IOException {
        if (request.header("anthropic-version").filter(v -> !v.isBlank()).isEmpty()) {
            sendError(exchange, 400, "anthropic-version: header is required");
            return;
        }
        AnthropicRequest messages;
        try {
            messages = AnthropicRequest.parse(request.json());
        } catch (AnthropicRequest.Invalid e) {
            sendError(exchange, 400, e.getMessage());
            return;
        }
        if (scenario.has(Scenario.Flag.NOPREFILL) && messages.lastIsAssistant()) {
            sendError(exchange, 400, PREFILL_REFUSAL);
            return;
        }
        Reply reply = generator.reply(messages.prompt(), scenario);
        AnthropicCache.Split split = cacheSplit(messages, scenario, reply);
        AnthropicRender render = new AnthropicRender("msg_fake_" + messageSequence.incrementAndGet(),
                messages.prompt().model(), messages.displayOmitted(), scenario.has(Scenario.Flag.REDACTED), split);
        Map<String, String> headers = Map.of("request-id", nextRequestId());
        if (messages.stream()) {
            stream(render.events(reply), scenario, exchange, headers);
        } else {
            Map<String, String> json = new LinkedHashMap<>(headers);
            json.put("content-type", "application/json");
            exchange.respondWhole(json, TestkitJson.bytes(render.message(reply)),
                    scenario.has(Scenario.Flag.MIDFAIL) || scenario.has(Scenario.Flag.MIDRESET), scenario.has(Scenario.Flag.EMPTY));
        }
    }

    private AnthropicCache.Split cacheSplit(AnthropicRequest messages, Scenario scenario, Reply reply) {
        int prompt = reply.usage().promptTokens();
        boolean breakpoints = messages.units().stream().anyMatch(u -> u.breakpointTtl().isPresent());
        if (breakpoints) {
            return cache.account(messages.prompt().model(), messages.units(), prompt);
        }
        int read = reply.usage().cachedTokens(); // -cache: half the prompt, as for every dialect
        return new AnthropicCache.Split(prompt - read, read, 0, 0);
    }

    private static void stream(List<AnthropicRender.Frame> frames, Scenario scenario, RawExchange exchange,
                               Map<String, String> headers) throws IOException {
        if (scenario.has(Scenario.Flag.EMPTY)) {
            Map<String, String> closing = new LinkedHashMap<>(headers);
            closing.put("connection", "close");
            exchange.openSse(200, closing).end();
            return;
        }
        SseStream sse = exchange.openSse(200, headers);
        boolean midfail = scenario.has(Scenario.Flag.MIDFAIL);
        boolean midreset = scenario.has(Scenario.Flag.MIDRESET);
        List<AnthropicRender.Frame> sent = midfail || midreset
                ? frames.subList(0, Math.min(EVENTS_BEFORE_FAULT, frames.size()))
                : frames;
        for (AnthropicRender.Frame frame : sent) {
            sse.event(frame.event(), TestkitJson.text(frame.data()));
        }
        if (midfail) {
            ObjectNode error = TestkitJson.object().put("type", "error");
            error.putObject("error").put("type", "overloaded_error").put("message", "Overloaded");
            sse.event("error", TestkitJson.text(error));
        } else if (midreset) {
            RawExchange.pause(PAUSE_BEFORE_CUT);
            exchange.resetConnection();
            return;
        }
        sse.end();
    }

    private String nextRequestId() {
        return "req_fake_" + requestSequence.incrementAndGet();
    }

    /** Anthropic's error type for a status. */
    static String errorType(int status) {
        return switch (status) {
            case 401 -> "authentication_error";
            case 402 -> "billing_error";
            case 403 -> "permission_error";
            case 404 -> "not_found_error";
            case 413 -> "request_too_large";
            case 429 -> "rate_limit_error";
            case 504 -> "timeout_error";
            case 529 -> "overloaded_error";
            default -> status >= 500 ? "api_error" : "invalid_request_error";
        };
    }
}
