package dev.switchboard.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.engine.account.KeyScope;
import dev.switchboard.engine.pipeline.Caller;
import dev.switchboard.engine.pipeline.ChatPipeline;
import dev.switchboard.engine.pipeline.RequestTrace;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.GatewayError;
import dev.switchboard.server.http.Exchange;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.gemini.Gemini;
import dev.switchboard.wire.gemini.GeminiClientStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * {@code POST /v1beta/models/{model}:generateContent} and {@code :streamGenerateContent} (also under
 * {@code /v1}): the content-parts format over the chat pipeline (spec 2.9, 6.3), so billing, limits and
 * routing are those of every other chat endpoint. The model comes from the path, never from the body;
 * the key from {@code ?key=}, {@code x-goog-api-key} or {@code Authorization: Bearer} (spec 5).
 *
 * <p>A streamed answer is server-sent events with {@code ?alt=sse} (what Google's SDKs ask for), and
 * otherwise Google's other framing: one JSON array written element by element. Quiet streams get a
 * heartbeat that keeps each framing valid: an SSE comment, or a newline between array elements.
 */
public final class GenerateContentApi {
    public static final String ENDPOINT = KeyScope.GENERATE_CONTENT;
    /** JSON allows whitespace between any two tokens, so a newline between array elements is harmless. */
    static final byte[] JSON_HEARTBEAT = "\n".getBytes(StandardCharsets.UTF_8);

    private final ChatPipeline chat;
    private final Authenticator auth;
    private final Heartbeats heartbeats;
    private final String prefix;

    /** {@code prefix} is the path up to the model, e.g. {@code /v1beta/models/}. */
    public GenerateContentApi(ChatPipeline chat, Authenticator auth, Heartbeats heartbeats, String prefix) {
        this.chat = chat;
        this.auth = auth;
        this.heartbeats = heartbeats;
        this.prefix = prefix;
    }

    /** Whether {@code ex} asks for an answer ({@code :generateContent} or {@code :streamGenerateContent}). */
    public static boolean generates(Exchange ex) {
        String path = ex.path();
        return path.endsWith(":" + ModelPath.GENERATE) || path.endsWith(":" + ModelPath.STREAM);
    }

    public void handle(Exchange ex) {
        ModelPath target = ModelPath.parse(ex.path(), prefix);
        String method = target.method().orElse("");
        if (method.equals(ModelPath.COUNT_TOKENS)) {
            countTokens(ex, target);
            return;
        }
        Caller caller = auth.authenticate(ex, Credentials.GOOGLE, ENDPOINT);
        boolean stream = switch (method) {
            case ModelPath.GENERATE -> false;
            case ModelPath.STREAM -> true;
            default -> throw GatewayError.notFound("Method '" + method + "' is not supported on " + prefix + "{model}: "
                    + "use :" + ModelPath.GENERATE + ", :" + ModelPath.STREAM + " or :" + ModelPath.COUNT_TOKENS + ".")
                    .toException();
        };
        ChatRequest request = GatewayHeaders.apply(ex, Gemini.fromClient(target.model(), ex.body(), stream));
        RequestTrace trace = new RequestTrace(ex.requestId(), ENDPOINT);
        ex.trace(trace);
        if (!stream) {
            ChatResponse response = chat.complete(caller, request, trace);
            ex.respond(200, "application/json; charset=utf-8", Json.writeBytes(Gemini.toClient(response, target.model())));
            return;
        }
        boolean sse = ex.query("alt").filter("sse"::equalsIgnoreCase).isPresent();
        GeminiClientStreamWriter writer = new GeminiClientStreamWriter(
                sse ? GeminiClientStreamWriter.Mode.SSE : GeminiClientStreamWriter.Mode.JSON_ARRAY, target.model());
        try (SseSink sink = new SseSink(ex, writer::writeBytes, Optional.of(heartbeats),
                sse ? SseSink.COMMENT_HEARTBEAT : JSON_HEARTBEAT, writer.contentType() + "; charset=utf-8",
                () -> writer.finish().getBytes(StandardCharsets.UTF_8))) {
            chat.stream(caller, request, trace, sink);
        }
    }

    /**
     * {@code :countTokens}: the same estimate as the messages format's {@code count_tokens} (about four
     * characters per token over system instruction, contents and tools), never sent upstream and never
     * billed. The body is Google's: {@code contents} (with {@code systemInstruction} and {@code tools} if
     * given), or the whole request under {@code generateContentRequest}. The answer is {@code {totalTokens}}.
     */
    private void countTokens(Exchange ex, ModelPath target) {
        Caller caller = auth.authenticate(ex, Credentials.GOOGLE, KeyScope.COUNT_TOKENS);
        JsonNode body = Json.parse(ex.body());
        JsonNode request = body.path("generateContentRequest").isObject() ? body.path("generateContentRequest") : body;
        ChatRequest parsed = Gemini.fromClient(target.model(), request);
        RequestTrace trace = new RequestTrace(ex.requestId(), KeyScope.COUNT_TOKENS);
        ex.trace(trace);
        long tokens = chat.countTokens(caller, parsed, trace);
        ex.respond(200, "application/json; charset=utf-8", Json.writeBytes(Json.object().put("totalTokens", tokens)));
    }
}
