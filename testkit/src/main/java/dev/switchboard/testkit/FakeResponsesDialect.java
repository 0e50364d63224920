package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * OpenAI's Responses API as the fake speaks it: {@code POST /v1/responses}, key in
 * {@code Authorization: Bearer}, errors in the chat-completions envelope. Requests are checked as
 * {@link ResponsesCreateBody} describes (what the real endpoint refuses) and answered by
 * {@link ResponsesRender}: a response object, or the named-event stream.
 *
 * <p>Beyond the shared scenario suffixes:
 * <ul>
 *   <li>{@code -reasoning} (or a {@code reasoning.effort} other than {@code none}): a reasoning item, with
 *       a summary when asked and encrypted content when included; encrypted content sent back must be this
 *       fake's, unaltered;</li>
 *   <li>{@code -noreason}: the model does not reason, and refuses {@code include} of encrypted reasoning
 *       and {@code reasoning.effort} as OpenAI does;</li>
 *   <li>{@code -refusal}: the answer is a {@code refusal} part instead of text;</li>
 *   <li>{@code -failed}: streamed, {@code response.created} and {@code response.in_progress}, then
 *       {@code response.failed} ({@code server_error}) before any output; plain, a 500;</li>
 *   <li>{@code -midfail}: streamed, the first four events after {@code response.in_progress}, then an
 *       {@code error} event and {@code response.failed} ({@code server_error}) and a clean end of the body;
 *       plain, half the body and a reset;</li>
 *   <li>{@code -midreset}: streamed, the same events, then a TCP reset; plain, as {@code -midfail};</li>
 *   <li>{@code -empty}: streamed, SSE headers and a body that ends before its first event; plain, an
 *       empty 200 body.</li>
 * </ul>
 */
final class FakeResponsesDialect implements FakeDialect {

    static final String RESPONSES_PATH = "/v1/responses";
    static final String SERVER_ERROR = "The server had an error while processing your request. Sorry about that!";

    // Lets the client take in the frames before the cut, so what it saw is deterministic.
    private static final Duration PAUSE_BEFORE_CUT = Duration.ofMillis(50);
    private static final int EVENTS_BEFORE_FAULT = 6;

    private final AnswerGenerator generator;
    private final AtomicLong responseSequence = new AtomicLong();

    FakeResponsesDialect(AnswerGenerator generator) {
        this.generator = generator;
    }

    @Override
    public boolean serves(RecordedRequest request) {
        return request.method().equals("POST") && request.path().equals(RESPONSES_PATH);
    }

    @Override
    public Optional<String> apiKey(RecordedRequest request) {
        return FakeOpenAiDialect.bearer(request);
    }

    @Override
    public ObjectNode errorEnvelope(int status, String message) {
        return FakeOpenAiDialect.envelope(status, message, Optional.empty());
    }

    @Override
    public void serve(RecordedRequest request, Scenario scenario, RawExchange exchange) throws IOException {
        ResponsesCreateBody body;
        try {
            body = ResponsesCreateBody.parse(request.json(), !scenario.has(Scenario.Flag.NOREASON));
        } catch (ResponsesCreateBody.Invalid e) {
            exchange.respondJson(400, FakeOpenAiDialect.envelope(400, e.getMessage(), e.param()));
            return;
        }
        Reply reply = generator.reply(body.prompt(), scenario);
        ResponsesRender render = new ResponsesRender("resp_fake_" + responseSequence.incrementAndGet(), body.prompt().model(),
                body.summary(), body.encrypted(), scenario.has(Scenario.Flag.REFUSAL), body.customTools());
        if (body.stream()) {
            stream(render, reply, scenario, exchange);
        } else if (scenario.has(Scenario.Flag.FAILED)) {
            sendError(exchange, 500, SERVER_ERROR);
        } else {
            exchange.respondWhole(Map.of("content-type", "application/json"), TestkitJson.bytes(render.response(reply)),
                    scenario.has(Scenario.Flag.MIDFAIL) || scenario.has(Scenario.Flag.MIDRESET), scenario.has(Scenario.Flag.EMPTY));
        }
    }

    private static void stream(ResponsesRender render, Reply reply, Scenario scenario, RawExchange exchange)
            throws IOException {
        if (scenario.has(Scenario.Flag.EMPTY)) {
            exchange.openSse(200, Map.of("connection", "close")).end();
            return;
        }
        List<ResponsesRender.Frame> frames = render.events(reply);
        SseStream sse = exchange.openSse(200);
        boolean failed = scenario.has(Scenario.Flag.FAILED);
        boolean midfail = scenario.has(Scenario.Flag.MIDFAIL);
        boolean midreset = scenario.has(Scenario.Flag.MIDRESET);
        int sent = failed ? 2 : midfail || midreset ? Math.min(EVENTS_BEFORE_FAULT, frames.size() - 1) : frames.size();
        for (ResponsesRender.Frame frame : frames.subList(0, sent)) {
            sse.event(frame.event(), TestkitJson.text(frame.data()));
        }
        if (midreset) {
            RawExchange.pause(PAUSE_BEFORE_CUT);
            exchange.resetConnection();
            return;
        }
        if (midfail) {
            ResponsesRender.Frame error = ResponsesRender.frame("error", TestkitJson.object().put("code", "server_error")
                    .put("message", SERVER_ERROR).putNull("param"), sent++);
            sse.event(error.event(), TestkitJson.text(error.data()));
        }
        if (failed || midfail) {
            ObjectNode response = (ObjectNode) frames.getFirst().data().path("response").deepCopy();
            response.put("status", "failed");
            response.putObject("error").put("code", "server_error").put("message", SERVER_ERROR);
            ResponsesRender.Frame failure = ResponsesRender.frame("response.failed",
                    TestkitJson.object().set("response", response), sent);
            sse.event(failure.event(), TestkitJson.text(failure.data()));
        }
        sse.end();
    }
}
