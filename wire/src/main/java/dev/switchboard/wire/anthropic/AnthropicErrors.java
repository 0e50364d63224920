package dev.switchboard.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.GatewayError;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.ErrorEnvelope;
import dev.switchboard.wire.internal.UpstreamErrors;
import java.util.Optional;

/**
 * Errors both ways. Toward the client: the spec's envelope ({@code error.message/type/param/code}, spec 7)
 * plus the top-level {@code "type": "error"} Anthropic SDKs look for (docs/contracts.md §4). {@code error.type}
 * stays the spec's slug ({@code rate_limit_error}, {@code model_not_found}, {@code api_error}...): the
 * Anthropic SDKs choose their exception class by HTTP status alone (400 BadRequest, 401 Authentication,
 * 403 PermissionDenied, 404 NotFound, 429 RateLimit, 529 Overloaded, other 5xx InternalServer), so no
 * SDK depends on Anthropic's own type words.
 *
 * <p>From an upstream: the Anthropic error envelope {@code {"type":"error","error":{"type","message"}}}, the message
 * kept (as {@link UpstreamErrors} cleans it), the type the spec's for the status, retryable per docs/contracts.md §1.
 */
final class AnthropicErrors {

    private AnthropicErrors() {
    }

    static ObjectNode body(GatewayError error) {
        ObjectNode body = Json.object().put("type", "error");
        body.set("error", ErrorEnvelope.error(error));
        return body;
    }

    static GatewayError fromUpstream(int status, byte[] body) {
        int shown = UpstreamErrors.status(status);
        Optional<String> message = UpstreamErrors.json(body).map(j -> j.path("error").path("message"))
                .filter(m -> m.isTextual() && !m.textValue().isBlank()).map(JsonNode::textValue);
        // Not the Anthropic error envelope (a proxy's HTML page, a cut body): a message naming the status instead.
        return UpstreamErrors.error(shown,
                message.orElse("The Anthropic upstream answered HTTP " + status + " without an error message."),
                Optional.empty());
    }

    /** An in-band {@code event: error} payload; its status comes from Anthropic's error type. */
    static GatewayError fromStreamEvent(JsonNode data) {
        JsonNode error = data.path("error");
        int status = statusOf(error.path("type").asText(""));
        String message = error.path("message").isTextual() && !error.path("message").textValue().isBlank()
                ? error.path("message").textValue()
                : "The Anthropic upstream reported an error mid-stream.";
        return UpstreamErrors.error(status, message, Optional.empty());
    }

    /** The HTTP status Anthropic uses for each of its error types. */
    static int statusOf(String anthropicType) {
        return switch (anthropicType) {
            case "invalid_request_error" -> 400;
            case "authentication_error" -> 401;
            case "billing_error" -> 402;
            case "permission_error" -> 403;
            case "not_found_error" -> 404;
            case "request_too_large" -> 413;
            case "rate_limit_error" -> 429;
            case "timeout_error" -> 504;
            case "overloaded_error" -> 529;
            default -> 500; // api_error and anything new
        };
    }
}
