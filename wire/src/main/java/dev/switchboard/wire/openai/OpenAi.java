package dev.switchboard.wire.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.GatewayError;
import dev.switchboard.wire.Json;
import java.util.List;

/**
 * The OpenAI chat-completions wire format, both directions, as pure functions: no I/O, no clock, no
 * randomness (ids and {@code created} times are passed in or taken from the input).
 *
 * <p>Client side (callers speak this format): {@link #fromClient}, {@link #toClient}, {@link #errorBody},
 * and one {@link OpenAiClientStreamWriter} per streamed answer. Upstream side (OpenAI and compatible
 * servers: OpenRouter, vLLM, DeepSeek...): {@link #toUpstream}, {@link #fromUpstream},
 * {@link #errorFromUpstream}, and one {@link OpenAiUpstreamStreamParser} per upstream stream.
 *
 * <p>Client input that breaks the format's rules throws a 400 {@link dev.switchboard.model.GatewayException}
 * whose {@code param} is the JSON path of the offending field; no other exception escapes for bad input.
 */
public final class OpenAi {
    /** The format's name, as used by {@link dev.switchboard.model.Passthrough} and signature origins. */
    public static final String FORMAT = "openai";

    private OpenAi() {
    }

    /** Reads a client's request body (spec 2.2). @throws dev.switchboard.model.GatewayException 400 on invalid input */
    public static ChatRequest fromClient(JsonNode body) {
        return OpenAiClientRequestReader.read(body);
    }

    /** Parses and reads a client's request body; malformed JSON is a 400 too. */
    public static ChatRequest fromClient(byte[] body) {
        return OpenAiClientRequestReader.read(Json.parse(body));
    }

    /** Renders an answer for a client (spec 2.6); {@code created} is the Unix time in seconds. */
    public static ObjectNode toClient(ChatResponse response, long created) {
        return OpenAiClientResponseWriter.write(response, created, response.id());
    }

    /**
     * As {@link #toClient(ChatResponse, long)}, with {@code fallbackId} as the completion id when the upstream
     * gave none (spec 2.6: a stable completion id, never an empty one).
     */
    public static ObjectNode toClient(ChatResponse response, long created, String fallbackId) {
        return OpenAiClientResponseWriter.write(response, created, response.id().isBlank() ? fallbackId : response.id());
    }

    /** The error envelope {@code {"error": {message, type, param, code}}} with {@code code} the status as text. */
    public static ObjectNode errorBody(GatewayError error) {
        return OpenAiErrors.body(error);
    }

    /**
     * Renders a request for an OpenAI-compatible upstream with the default options (notably
     * {@code max_tokens}, which every compatible server understands; see {@link OpenAiUpstreamOptions}).
     *
     * @param upstreamModel the provider's name for the model
     * @param stream whether to ask for a stream (then with {@code stream_options.include_usage})
     */
    public static ObjectNode toUpstream(ChatRequest request, String upstreamModel, boolean stream) {
        return toUpstream(request, upstreamModel, stream, OpenAiUpstreamOptions.DEFAULT);
    }

    /** Renders a request for an OpenAI-compatible upstream, adapted by {@code options}. */
    public static ObjectNode toUpstream(ChatRequest request, String upstreamModel, boolean stream,
                                        OpenAiUpstreamOptions options) {
        return OpenAiUpstreamRequestWriter.write(request, upstreamModel, stream, options);
    }

    /**
     * What {@link #toUpstream(ChatRequest, String, boolean, OpenAiUpstreamOptions)} leaves out of
     * {@code request}, by field name: client fields the server does not take, other formats' fields.
     */
    public static List<String> notCarried(ChatRequest request, OpenAiUpstreamOptions options) {
        return OpenAiUpstreamRequestWriter.notCarried(request, options);
    }

    /**
     * Reads an upstream's non-streamed answer. {@code model} is the upstream's model name; the engine
     * replaces it with the gateway's.
     *
     * @throws dev.switchboard.model.GatewayException retryable 502 when the answer is malformed
     */
    public static ChatResponse fromUpstream(JsonNode body) {
        return OpenAiUpstreamResponseReader.read(body);
    }

    /** The error of a failed upstream call, keeping its message; retryable per docs/contracts.md §1. */
    public static GatewayError errorFromUpstream(int status, byte[] body) {
        return OpenAiErrors.fromUpstream(status, body);
    }
}
