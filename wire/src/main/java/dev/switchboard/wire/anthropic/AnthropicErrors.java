package dev.switchboard.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.GatewayError;
import dev.switchboard.wire.Json;
import java.io.IOException;
import java.util.Optional;

/**
 * Errors both ways. Toward the client: the spec's envelope ({@code error.message/type/param/code}, spec 7)
 * plus the top-level {@code "type": "error"} Anthropic SDKs look for (CONTRACTS 4). {@code error.type}
 * stays the spec's slug ({@code rate_limit_error}, {@code model_not_found}, {@code api_error}...): the
 * Anthropic SDKs choose their exception class by HTTP status alone (400 BadRequest, 401 Authentication,
 * 403 PermissionDenied, 404 NotFound, 429 RateLimit, 529 Overloaded, other 5xx InternalServer), so no
 * SDK depends on Anthropic's own type words.
 *
 * <p>From an upstream: the B.8 envelope {@code {"type":"error","error":{"type","message"}}}, the message
 * kept verbatim, the type translated to the spec's slug by status, retryable per CONTRACTS 1.
 */
final class AnthropicErrors {

    private AnthropicErrors() {
    }

    static ObjectNode body(GatewayError error) {
        ObjectNode body = Json.object().put("type", "error");
        ObjectNode e = body.putObject("error").put("message", error.message()).put("type", error.type());
        error.param().ifPresentOrElse(p -> e.put("param", p), () -> e.putNull("param"));
        e.put("code", Integer.toString(error.status()));
        return body;
    }

    static GatewayError fromUpstream(int status, byte[] body) {
        int shown = status >= 400 && status <= 599 ? status : 502;
        Optional<String> message = Optional.empty();
        try {
            JsonNode json = Json.MAPPER.readTree(body);
            if (json != null) {
                JsonNode m = json.path("error").path("message");
                if (m.isTextual() && !m.textValue().isBlank()) {
                    message = Optional.of(m.textValue());
                }
            }
        } catch (IOException | RuntimeException e) {
            // Not the B.8 envelope (a proxy's HTML page, a cut body): fall back to a message naming the status.
        }
        return new GatewayError(shown, slug(shown),
                message.orElse("The Anthropic upstream answered HTTP " + status + " without an error message."),
                Optional.empty(), GatewayError.retryableStatus(shown));
    }

    /** An in-band {@code event: error} payload; its status comes from Anthropic's error type. */
    static GatewayError fromStreamEvent(JsonNode data) {
        JsonNode error = data.path("error");
        int status = statusOf(error.path("type").asText(""));
        String message = error.path("message").isTextual() && !error.path("message").textValue().isBlank()
                ? error.path("message").textValue()
                : "The Anthropic upstream reported an error mid-stream.";
        return new GatewayError(status, slug(status), message, Optional.empty(), GatewayError.retryableStatus(status));
    }

    /** The HTTP status Anthropic uses for each of its error types (wire-formats B.8). */
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

    /** The spec's error slug for a status (spec 7). */
    static String slug(int status) {
        return switch (status) {
            case 401 -> "auth_required";
            case 402 -> "insufficient_quota";
            case 403 -> "model_access_denied";
            case 404 -> "model_not_found";
            case 429 -> "rate_limit_error";
            default -> status >= 500 ? "api_error" : "invalid_request_error";
        };
    }
}
