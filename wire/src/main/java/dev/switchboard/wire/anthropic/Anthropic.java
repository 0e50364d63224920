package dev.switchboard.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.GatewayError;
import dev.switchboard.wire.internal.NotCarried;
import java.util.ArrayList;
import java.util.List;

/**
 * The Anthropic messages format, both directions. Every method is a pure function: no I/O, logging,
 * clock or randomness; thread-safe. Streams use {@link AnthropicClientStreamWriter} (toward the client)
 * and {@link AnthropicUpstreamStreamParser} (from an upstream), one instance per stream.
 *
 * <p>Client side ({@code POST /v1/messages} of the gateway): {@link #fromClient}, {@link #toClient},
 * {@link #errorBody}, and {@link #fromClientCountTokens} for {@code POST /v1/messages/count_tokens}.
 * Upstream side (toward an api.anthropic.com-style provider): {@link #toUpstream}, {@link #requiredBetas},
 * {@link #fromUpstream}, {@link #errorFromUpstream}. Whether an error refuses assistant prefill is the
 * engine's rule, the same for every provider.
 */
public final class Anthropic {
    /** The format name used for {@code Signature}, {@code Opaque}, {@code Passthrough} and {@code RedactedThinking} origins. */
    public static final String FORMAT = "anthropic";

    private Anthropic() {
    }

    /**
     * Reads a client's request body (spec 2.7).
     *
     * @throws dev.switchboard.model.GatewayException 400 {@code invalid_request_error} whose {@code param}
     *         is the path of the offending field, e.g. {@code messages[1].content[0].type}
     */
    public static ChatRequest fromClient(JsonNode body) {
        return AnthropicClientRequestReader.read(body);
    }

    /**
     * Reads a client's {@code POST /v1/messages/count_tokens} body: {@code model}, {@code messages} and the
     * optional {@code system}, {@code tools}, {@code tool_choice} and {@code thinking}, under the same rules
     * as {@link #fromClient}, except that {@code max_tokens} is not required.
     *
     * @throws dev.switchboard.model.GatewayException 400 {@code invalid_request_error} naming the field
     */
    public static ChatRequest fromClientCountTokens(JsonNode body) {
        return AnthropicClientRequestReader.readForCounting(body);
    }

    /** A complete answer as an Anthropic {@code message} object (spec 2.8). */
    public static ObjectNode toClient(ChatResponse response) {
        return AnthropicClientResponseWriter.write(response);
    }

    /**
     * The error body for a client of this format: the spec envelope {@code {"error": {message, type,
     * param, code}}} plus the top-level {@code "type": "error"} Anthropic SDKs expect. {@code error.type}
     * is the spec's slug; SDKs pick their exception class from the HTTP status.
     */
    public static ObjectNode errorBody(GatewayError error) {
        return AnthropicErrors.body(error);
    }

    /**
     * The upstream request body for {@code upstreamModel}; {@code defaultMaxTokens} is sent when the
     * request has no {@code max_tokens} (Anthropic requires one). See {@link AnthropicUpstreamRequestWriter} for
     * every adjustment made on the way.
     */
    public static ObjectNode toUpstream(ChatRequest request, String upstreamModel, boolean stream, int defaultMaxTokens) {
        return AnthropicUpstreamRequestWriter.write(request, upstreamModel, stream, defaultMaxTokens);
    }

    /**
     * What {@link #toUpstream} leaves out of {@code request}: other formats' fields, {@code logprobs}, and the caller's
     * {@code anthropic-beta} values Anthropic does not accept ({@link AnthropicBetas}), as
     * {@code anthropic-beta: <value>}.
     */
    public static List<String> notCarried(ChatRequest request) {
        List<String> out = new ArrayList<>(NotCarried.foreign(request, FORMAT, (format, field) -> false));
        if (request.logprobs().isPresent()) {
            out.add("logprobs"); // the messages format has no token log probabilities
        }
        AnthropicBetas.notForwarded(request.betas()).forEach(b -> out.add("anthropic-beta: " + b));
        return out;
    }

    /** The {@code anthropic-beta} header values the request needs, sorted; empty when none. */
    public static List<String> requiredBetas(ChatRequest request) {
        return AnthropicUpstreamRequestWriter.requiredBetas(request);
    }

    /**
     * Reads an upstream's non-streamed answer.
     *
     * @throws dev.switchboard.model.GatewayException retryable 502 when the body is not a message object
     */
    public static ChatResponse fromUpstream(JsonNode body) {
        return AnthropicUpstreamResponseReader.read(body);
    }

    /**
     * An upstream error status and body (Anthropic's error envelope) in the gateway's terms: the upstream's message,
     * the spec slug for the status, retryable per docs/contracts.md §1 (408, 409, 425, 429, 5xx, 529). A body
     * that is not the envelope still gives an error; a status outside 4xx/5xx is reported as 502.
     */
    public static GatewayError errorFromUpstream(int status, byte[] body) {
        return AnthropicErrors.fromUpstream(status, body);
    }
}
