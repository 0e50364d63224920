package dev.switchboard.engine.responses;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.engine.pipeline.Caller;
import dev.switchboard.engine.pipeline.ChatService;
import dev.switchboard.engine.pipeline.RequestTrace;
import dev.switchboard.engine.pipeline.StreamSink;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.wire.responses.ResponsesIdSource;
import dev.switchboard.wire.responses.ResponsesHeader;
import dev.switchboard.wire.responses.Responses;
import dev.switchboard.wire.responses.ResponsesRequest;
import dev.switchboard.wire.responses.ResponsesStreamWriter;
import java.time.Instant;

/**
 * One prepared turn of a Responses conversation ({@link ResponsesService#begin}): run it once, plainly
 * with {@link #complete()} or streamed with {@link #stream}, and it stores what the caller was shown
 * (unless the request said {@code store: false}). Not thread-safe; one per request.
 *
 * <p>A streamed turn stores its terminal response: {@code completed}/{@code incomplete}, or
 * {@code failed} after a mid-stream failure; a stream whose client went away is stored as
 * {@code cancelled} with what had been generated. A turn that failed before anything was sent stores
 * nothing (the caller got a plain error and no response id).
 */
public final class ResponseTurn {
    private final ChatService chat;
    private final ResponseStore store;
    private final Caller caller;
    private final ResponsesRequest request;
    private final ChatRequest canonical;
    private final ResponsesHeader header;
    private final ResponsesIdSource ids;
    private final RequestTrace trace;
    private final Instant createdAt;
    private final ResponsesStreamWriter writer;

    ResponseTurn(ChatService chat, ResponseStore store, Caller caller, ResponsesRequest request, ChatRequest canonical,
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
        this.writer = Responses.streamWriter(header, ids);
    }

    /** The response id ({@code resp_...}) this turn will have. */
    public String id() {
        return header.id();
    }

    /** The canonical request the turn sends through the chat pipeline. */
    public ChatRequest canonical() {
        return canonical;
    }

    /** Runs the turn to a complete answer, stores it and returns the response object. */
    public ObjectNode complete() {
        ChatResponse answer = chat.complete(caller, canonical.toBuilder().stream(false).build(), trace);
        ObjectNode response = Responses.toClient(answer, header, ids);
        save(response);
        return response;
    }

    /**
     * Streams the turn to {@code sink}, whose events the caller renders with {@link #render}; stores
     * the outcome when the stream is over. Failures before the first event are thrown (see
     * {@link ChatService#stream}).
     */
    public void stream(StreamSink sink) {
        chat.stream(caller, canonical.toBuilder().stream(true).build(), trace, sink);
        save(writer.terminalResponse().orElseGet(writer::cancelled));
    }

    /** The Responses SSE frames for one canonical event of this turn's stream. */
    public byte[] render(StreamEvent event) {
        return writer.writeBytes(event);
    }

    private void save(ObjectNode response) {
        if (!request.store()) {
            return;
        }
        store.save(new StoredResponse(header.id(), caller.userId(), request.previousResponseId(),
                response.path("model").asText(request.model()), response.path("status").asText(), createdAt,
                request.input(), response));
    }

    @Override
    public String toString() {
        return "ResponseTurn[" + header.id() + ", previous=" + request.previousResponseId().orElse("none") + "]";
    }
}
