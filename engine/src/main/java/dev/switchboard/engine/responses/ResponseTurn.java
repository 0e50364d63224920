package dev.switchboard.engine.responses;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.engine.pipeline.Caller;
import dev.switchboard.engine.pipeline.ChatPipeline;
import dev.switchboard.engine.pipeline.RequestTrace;
import dev.switchboard.engine.pipeline.StreamSink;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.wire.responses.ResponsesIdSource;
import dev.switchboard.wire.responses.ResponsesHeader;
import dev.switchboard.wire.responses.ResponsesRequest;
import java.time.Instant;

/**
 * One prepared turn of a Responses conversation ({@link ResponsesService#begin}): run it once, plainly
 * with {@link #complete()} or streamed with {@link #stream}, then {@link #store} the response object the
 * caller was shown (a no-op when the request said {@code store: false}). Rendering that object is the
 * edge's job, with {@link #header()} and {@link #ids()}; the turn only runs and stores. Not thread-safe;
 * one per request.
 *
 * <p>A streamed turn stores its terminal response: {@code completed}/{@code incomplete}, or
 * {@code failed} after a mid-stream failure; a stream whose client went away is stored as
 * {@code cancelled} with what had been generated. A turn that failed before anything was sent stores
 * nothing (the caller got a plain error and no response id).
 */
public final class ResponseTurn {
    private final ChatPipeline chat;
    private final ResponseStore store;
    private final Caller caller;
    private final ResponsesRequest request;
    private final ChatRequest canonical;
    private final ResponsesHeader header;
    private final ResponsesIdSource ids;
    private final RequestTrace trace;
    private final Instant createdAt;

    ResponseTurn(ChatPipeline chat, ResponseStore store, Caller caller, ResponsesRequest request, ChatRequest canonical,
                 ResponsesHeader header, ResponsesIdSource ids, RequestTrace trace, Instant createdAt) {
        this.chat = chat;
        this.store = store;
        this.caller = caller;
        this.request = request;
        this.canonical = canonical;
        this.header = header;
        this.ids = ids;
        this.trace = trace;
        this.createdAt = createdAt;
    }

    /** The response id ({@code resp_...}) this turn will have. */
    public String id() {
        return header.id();
    }

    /** What the response object of this turn carries besides the answer: id, creation time, the request's echo. */
    public ResponsesHeader header() {
        return header;
    }

    /** Where the ids of this turn's output items come from. */
    public ResponsesIdSource ids() {
        return ids;
    }

    /** The canonical request the turn sends through the chat pipeline. */
    public ChatRequest canonical() {
        return canonical;
    }

    /** Runs the turn to a complete answer (named after the model that answered). */
    public ChatResponse complete() {
        return chat.complete(caller, canonical.toBuilder().stream(false).build(), trace);
    }

    /**
     * Streams the turn to {@code sink}. Failures before the first event are thrown (see
     * {@link ChatPipeline#stream}); nothing is to be stored then.
     */
    public void stream(StreamSink sink) {
        chat.stream(caller, canonical.toBuilder().stream(true).build(), trace, sink);
    }

    /** Stores the response object as the caller was shown it, unless the request said {@code store: false}. */
    public void store(ObjectNode shown) {
        if (!request.store()) {
            return;
        }
        store.save(new StoredResponse(header.id(), caller.userId(), request.previousResponseId(),
                shown.path("model").asText(request.model()), shown.path("status").asText(), createdAt,
                request.input(), shown));
    }

    @Override
    public String toString() {
        return "ResponseTurn[" + header.id() + ", previous=" + request.previousResponseId().orElse("none") + "]";
    }
}
