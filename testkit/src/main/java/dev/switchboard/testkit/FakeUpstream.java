package dev.switchboard.testkit;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * A scriptable fake LLM provider on a free loopback port, for tests that need an upstream to fail in
 * precise ways. It is an independent judge of the gateway: it uses no Switchboard code, only the JDK and
 * Jackson, so a shared misunderstanding of a wire format cannot make both sides agree.
 *
 * <p>It speaks OpenAI chat completions ({@code POST /v1/chat/completions}, {@code GET /v1/models}),
 * Anthropic messages ({@code POST /v1/messages}, see {@link FakeAnthropicDialect} for its checks and its own
 * suffixes {@code -midreset}, {@code -noprefill}, {@code -redacted}), Gemini ({@link FakeGeminiDialect}) and
 * OpenAI's Responses API ({@code POST /v1/responses}, see {@link FakeResponsesDialect} for what it refuses
 * and its own suffixes {@code -noreason}, {@code -refusal}, {@code -failed}). Behaviour is chosen by the upstream
 * model name in the request, through {@code -}-separated suffixes that combine
 * ({@code fake-reasoning-cache}):
 *
 * <ul>
 *   <li>{@code -failNNN}: status NNN with the provider's error envelope ({@code -fail429} adds
 *       {@code retry-after: 1});
 *   <li>{@code -hang}: reads the request and never answers;
 *   <li>{@code -reset}: reads the request, then a TCP reset without a byte of response;
 *   <li>{@code -midfail}: streamed, the role chunk and two more, then a reset; plain, half the body,
 *       then a reset;
 *   <li>{@code -slowfirst}: waits {@link #SLOW_FIRST_BYTE} before the first byte, then answers normally;
 *   <li>{@code -empty}: streamed, SSE headers and a body that ends before its first event; plain, a 200
 *       with an empty body;
 *   <li>{@code -reasoning} (or {@code reasoning_effort} in the request): a reasoning trace in
 *       {@code reasoning_content}; {@code -reasoningfield} also sends it as {@code reasoning};
 *   <li>{@code -cache}: usage reports half the prompt tokens as cached;
 *   <li>{@code -parallel}: two tool calls instead of one.
 * </ul>
 *
 * Without a fault the answer is deterministic: a tool call when tools are offered (a
 * {@link #preferCalls preferred} one when offered), {@code Tool result
 * received: ...} after a tool message, else {@code Hello from <model>! You said: <text>}; see
 * {@link AnswerGenerator} for limits, stop strings and token counts.
 *
 * <p>It is a raw HTTP/1.1 server on {@link java.net.ServerSocket}, not a framework server, because the
 * faults it exists for (a real TCP reset, a connection that never answers, a stream cut mid-way) are
 * exactly what a framework hides or repairs.
 *
 * <p>Contract: every method is thread-safe and may be called while requests are served. Configuration
 * applies to requests that arrive after the call. {@link #close()} ends every connection at once.
 */
public final class FakeUpstream implements AutoCloseable {

    /** How long {@code -slowfirst} waits before the first response byte. */
    public static final Duration SLOW_FIRST_BYTE = Duration.ofMillis(1500);

    private final Settings settings = new Settings();
    private final RequestLog log = new RequestLog();
    private final RawHttpServer server;

    private FakeUpstream() {
        AnswerGenerator generator = new AnswerGenerator(settings);
        List<FakeDialect> dialects = List.of(new FakeOpenAiDialect(settings, generator), new FakeAnthropicDialect(generator),
                new FakeGeminiDialect(settings, generator), new FakeResponsesDialect(generator));
        server = RawHttpServer.start(new Dispatcher(dialects, settings, log, SLOW_FIRST_BYTE));
    }

    /**
     * Starts a fake on a free port of 127.0.0.1, ready to serve when this returns.
     *
     * @throws java.io.UncheckedIOException when no port can be bound
     */
    public static FakeUpstream start() {
        return new FakeUpstream();
    }

    public int port() {
        return server.port();
    }

    /** {@code http://127.0.0.1:<port>}, without a trailing slash. */
    public String baseUrl() {
        return "http://127.0.0.1:" + port();
    }

    /** The base URL an OpenAI client is configured with: {@code baseUrl() + "/v1"}. */
    public String openAiBaseUrl() {
        return baseUrl() + "/v1";
    }

    /** The base URL an Anthropic client is configured with: {@link #baseUrl()} (the SDK adds {@code /v1/messages}). */
    public String anthropicBaseUrl() {
        return baseUrl();
    }

    /** Every request received since the start or the last {@link #reset()}, in arrival order; immutable. */
    public List<RecordedRequest> received() {
        return log.snapshot();
    }

    /** The received requests whose {@link RecordedRequest#model()} is {@code upstreamModel}. */
    public List<RecordedRequest> received(String upstreamModel) {
        return log.snapshot().stream()
                .filter(r -> r.model().filter(upstreamModel::equals).isPresent())
                .toList();
    }

    /** Forgets the received requests. Keys, key statuses, scripts and models stay configured. */
    public void reset() {
        log.clear();
    }

    /**
     * Accepts these API keys; from the first call on, a request without an accepted key gets 401 in the
     * provider's error envelope. Further calls add keys.
     */
    public FakeUpstream requireKey(String... keys) {
        settings.acceptKeys(Arrays.asList(keys));
        return this;
    }

    /**
     * Answers every request that carries {@code key} with {@code status} and the provider's error envelope
     * (429 with {@code retry-after: 1}), whether or not the key is accepted: a revoked or rate-limited key,
     * so tests can prove key rotation.
     */
    public FakeUpstream keyStatus(String key, int status) {
        settings.keyStatus(key, status);
        return this;
    }

    /**
     * Closes a kept-alive connection that carries no new request within {@code idle}, as providers' load
     * balancers do; {@link Duration#ZERO} keeps connections as long as the gateway does (the default).
     */
    public FakeUpstream closeIdleConnectionsAfter(Duration idle) {
        server.closeIdleAfter((int) idle.toMillis());
        return this;
    }

    /**
     * When on, a request that arrives on an already used connection is met by a close before any answer
     * and is not recorded: a kept connection that the provider closed just as the request went out.
     */
    public FakeUpstream dropRequestsOnReusedConnections(boolean drop) {
        server.dropReusedConnections(drop);
        return this;
    }

    /**
     * Answers requests for exactly {@code upstreamModel} with {@code responder} instead of the built-in
     * behaviour (the key check still comes first). Replaces an earlier script for the same model.
     */
    public FakeUpstream script(String upstreamModel, Responder responder) {
        settings.script(upstreamModel, responder);
        return this;
    }

    /**
     * A tool call the fake makes instead of its default one: when the offered tools include {@code toolName}
     * (and no tool is forced), it calls that tool with {@code arguments} (a JSON object as text). The first
     * preference whose tool is offered wins; with none offered, the default behaviour applies. Meant for
     * real clients (coding agents) whose first tool would do something unwanted, or that need real
     * arguments for a tool to run.
     */
    public record PreferredCall(String toolName, String arguments) {
        public PreferredCall {
            java.util.Objects.requireNonNull(toolName, "toolName");
            java.util.Objects.requireNonNull(arguments, "arguments");
        }
    }

    /** Replaces the preferred tool calls (see {@link PreferredCall}); an empty list restores the default. */
    public FakeUpstream preferCalls(List<PreferredCall> calls) {
        settings.preferredCalls(calls);
        return this;
    }

    /** The model ids {@code GET /v1/models} lists; {@code fake-model} until set. */
    public FakeUpstream models(String... ids) {
        settings.models(Arrays.asList(ids));
        return this;
    }

    /** Stops accepting and ends every connection now, including hanging and delayed ones. Idempotent. */
    @Override
    public void close() {
        server.close();
    }

    @Override
    public String toString() {
        return "FakeUpstream[" + baseUrl() + "]";
    }
}
