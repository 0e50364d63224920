package dev.switchboard.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.engine.pipeline.RequestTrace;
import dev.switchboard.wire.Json;
import java.io.OutputStream;
import java.util.Optional;

/**
 * One HTTP request and its response, as the gateway's handlers see it. This is the seam between the
 * gateway and the HTTP server library (Helidon today): handlers never touch the library's types, so the
 * server could be swapped by writing one adapter.
 *
 * <p>Every response carries {@code x-request-id}. A response is either {@link #respond whole} or
 * {@link #openStream streamed}; once either happened the exchange is {@link #committed()}.
 */
public interface Exchange {
    String method();

    /** The request path without query. */
    String path();

    Optional<String> header(String name);

    /** Every value of a request header, in the order sent (a header sent twice has two); empty when absent. */
    default java.util.List<String> headers(String name) {
        return header(name).map(java.util.List::of).orElse(java.util.List.of());
    }

    Optional<String> query(String name);

    /** A named parameter of the route pattern ({@code /admin/v1/users/{id}}). */
    String pathParam(String name);

    /** The request body (bounded by the server's payload limit). */
    byte[] body();

    /**
     * The address of the connection's peer (the client, or the last proxy in front of the gateway), as text.
     * Exchanges that do not come from a network connection answer {@code "local"}.
     */
    default String remoteAddress() {
        return "local";
    }

    /** The id of this request, also sent back as {@code x-request-id}. */
    String requestId();

    /** Adds a response header; only before the response is committed. */
    void header(String name, String value);

    void respond(int status, String contentType, byte[] body);

    /** A whole JSON answer. */
    default void respondJson(int status, JsonNode body) {
        respond(status, "application/json", Json.writeBytes(body));
    }

    /** Sends status and headers now and returns the body stream; the caller flushes after each event. */
    OutputStream openStream(int status, String contentType);

    boolean committed();

    /**
     * Runs {@code hook} just before the response is committed (status and headers sent), whichever way: a whole
     * answer, a stream, or an error. For headers that depend on how the request went; hooks run in the order
     * added, once.
     */
    void beforeCommit(Runnable hook);

    /** The chat pipeline's record of this request, when it reached the pipeline (for the request log). */
    Optional<RequestTrace> trace();

    void trace(RequestTrace trace);
}
