package dev.switchboard.server.api;

import dev.switchboard.engine.pipeline.Caller;
import dev.switchboard.engine.pipeline.ChatPipeline;
import dev.switchboard.engine.pipeline.RequestTrace;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.server.http.Exchange;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.openai.OpenAi;
import dev.switchboard.wire.openai.OpenAiClientStreamWriter;
import java.time.Clock;
import java.util.Optional;

/** {@code POST /v1/chat/completions}: the chat-completions format over the chat pipeline, plain or streamed (spec 2.2, 2.6, 6.1). */
public final class ChatCompletionsApi {
    public static final String ENDPOINT = "chat_completions";

    private final ChatPipeline chat;
    private final Authenticator auth;
    private final Clock clock;
    private final Heartbeats heartbeats;

    public ChatCompletionsApi(ChatPipeline chat, Authenticator auth, Clock clock, Heartbeats heartbeats) {
        this.chat = chat;
        this.auth = auth;
        this.clock = clock;
        this.heartbeats = heartbeats;
    }

    /** The completion id when the upstream gave none: derived from the request id, so it is stable and traceable. */
    static String completionId(Exchange ex) {
        return "chatcmpl-" + ex.requestId().replaceFirst("^req_", "");
    }

    public void handle(Exchange ex) {
        Caller caller = auth.authenticate(ex, Credentials.BEARER, ENDPOINT);
        ChatRequest request = GatewayHeaders.apply(ex, OpenAi.fromClient(ex.body()));
        RequestTrace trace = new RequestTrace(ex.requestId(), ENDPOINT);
        ex.trace(trace);
        long created = clock.instant().getEpochSecond();
        if (!request.stream()) {
            ChatResponse response = chat.complete(caller, request, trace);
            ex.respond(200, "application/json", Json.writeBytes(OpenAi.toClient(response, created, completionId(ex))));
            return;
        }
        OpenAiClientStreamWriter writer = new OpenAiClientStreamWriter(created, completionId(ex));
        try (SseSink sink = new SseSink(ex, writer::writeBytes, Optional.of(heartbeats), SseSink.COMMENT_HEARTBEAT)) {
            chat.stream(caller, request, trace, sink);
        }
    }
}
