package dev.switchboard.server.api;

import dev.switchboard.engine.pipeline.Caller;
import dev.switchboard.engine.pipeline.ChatPipeline;
import dev.switchboard.engine.pipeline.RequestTrace;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.GatewayError;
import dev.switchboard.server.http.ErrorRenderer;
import dev.switchboard.server.http.Exchange;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.anthropic.Anthropic;
import dev.switchboard.wire.anthropic.AnthropicClientStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The messages format (spec 2.7, 2.8, 6.2): {@code POST /v1/messages} over the chat pipeline, plain or as
 * the named-event stream, and {@code POST /v1/messages/count_tokens}, which answers an estimate
 * ({@code {"input_tokens": n}}, about four characters per token over system, messages and tools) without
 * reaching any upstream and without billing.
 *
 * <p>Both take the key as {@code x-api-key} or {@code Authorization: Bearer} (spec 5) and require the
 * {@code anthropic-version} header (spec 9; any non-blank value): a request without it is a 400 naming
 * the header. Errors are rendered by {@link #ERRORS}; every response also carries Anthropic's
 * {@code request-id} header, the same id as {@code x-request-id}, for SDKs that read it.
 */
public final class MessagesApi {
    public static final String ENDPOINT = "messages";
    public static final String COUNT_TOKENS_ENDPOINT = "count_tokens";
    /** The header every messages-format request must carry (spec 9). */
    public static final String VERSION_HEADER = "anthropic-version";
    /** The caller's beta feature flags, forwarded to Anthropic upstreams that accept them. */
    static final String BETA_HEADER = "anthropic-beta";
    /** The spec's error envelope plus the top-level {@code "type": "error"} Anthropic SDKs expect (docs/contracts.md §4). */
    public static final ErrorRenderer ERRORS = e -> Json.writeBytes(Anthropic.errorBody(e));

    /** Anthropic's own keep-alive, which its SDKs know and skip, rather than an SSE comment. */
    static final String HEARTBEAT = AnthropicClientStreamWriter.ping();

    private final ChatPipeline chat;
    private final Authenticator auth;
    private final Heartbeats heartbeats;

    public MessagesApi(ChatPipeline chat, Authenticator auth, Heartbeats heartbeats) {
        this.chat = chat;
        this.auth = auth;
        this.heartbeats = heartbeats;
    }

    /** {@code POST /v1/messages}. */
    public void create(Exchange ex) {
        Caller caller = admit(ex, ENDPOINT);
        ChatRequest request = GatewayHeaders.apply(ex, Anthropic.fromClient(Json.parse(ex.body())))
                .toBuilder().betas(betas(ex)).build();
        RequestTrace trace = new RequestTrace(ex.requestId(), ENDPOINT);
        ex.trace(trace);
        if (!request.stream()) {
            ChatResponse response = chat.complete(caller, request, trace);
            ex.respond(200, "application/json", Json.writeBytes(Anthropic.toClient(response)));
            return;
        }
        AnthropicClientStreamWriter writer = new AnthropicClientStreamWriter();
        try (SseSink sink = new SseSink(ex, writer::writeBytes, Optional.of(heartbeats),
                HEARTBEAT.getBytes(StandardCharsets.UTF_8))) {
            chat.stream(caller, request, trace, sink);
        }
    }

    /** {@code POST /v1/messages/count_tokens}. */
    public void countTokens(Exchange ex) {
        Caller caller = admit(ex, COUNT_TOKENS_ENDPOINT);
        ChatRequest request = GatewayHeaders.apply(ex, Anthropic.fromClientCountTokens(Json.parse(ex.body())));
        RequestTrace trace = new RequestTrace(ex.requestId(), COUNT_TOKENS_ENDPOINT);
        ex.trace(trace);
        long tokens = chat.countTokens(caller, request, trace);
        ex.respondJson(200, Json.object().put("input_tokens", tokens));
    }

    /** The caller's {@code anthropic-beta} values, for an Anthropic upstream ({@code AnthropicBetas} says which go on). */
    static List<String> betas(Exchange ex) {
        return ex.header(BETA_HEADER).stream().flatMap(v -> Arrays.stream(v.split(",")))
                .map(String::strip).filter(v -> !v.isEmpty()).toList();
    }

    /** Who is calling, once the request is known to be a messages-format one. */
    private Caller admit(Exchange ex, String endpoint) {
        ex.header("request-id", ex.requestId());
        Caller caller = auth.authenticate(ex, Credentials.BEARER_OR_X_API_KEY, endpoint);
        if (ex.header(VERSION_HEADER).filter(v -> !v.isBlank()).isEmpty()) {
            throw GatewayError.invalid(VERSION_HEADER, "The " + VERSION_HEADER
                    + " header is required (for example " + VERSION_HEADER + ": 2023-06-01).").toException();
        }
        return caller;
    }
}
