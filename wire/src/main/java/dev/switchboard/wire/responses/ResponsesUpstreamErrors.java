package dev.switchboard.wire.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.GatewayError;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.ErrorEnvelope;
import java.util.Locale;

/**
 * Errors of a Responses upstream. A failed HTTP call carries the chat-completions envelope
 * ({@code {"error": {message, type, param, code}}}), read as for any OpenAI upstream. A response that
 * failed after it began says so in-band, with only an error {@code code} and {@code message}
 * ({@code response.failed}, the {@code error} stream event, or {@code status: "failed"} in a whole
 * answer); the code decides the status and so whether another provider is worth trying:
 * {@code server_error} 500 and {@code rate_limit_exceeded} 429 (retryable), {@code vector_store_timeout}
 * 504, the prompt and image codes 400 (the request is at fault), anything unknown 502 (retryable: the
 * provider broke its answer, not the caller).
 */
final class ResponsesUpstreamErrors {
    private ResponsesUpstreamErrors() {
    }

    static GatewayError fromHttp(int status, byte[] body) {
        return ErrorEnvelope.fromUpstream(status, body);
    }

    /**
     * The error of a failed response or an {@code error} event: {@code {code, message, param?}}, or the
     * same nested under {@code error}.
     */
    static GatewayError fromInBand(JsonNode error) {
        JsonNode e = error.path("error").isObject() ? error.path("error") : error;
        String code = e.path("code").asText(e.path("type").asText(""));
        String message = e.path("message").asText("");
        if (message.isBlank()) {
            message = "The upstream's response failed" + (code.isEmpty() ? "." : " (" + code + ").");
        }
        ObjectNode envelope = Json.object();
        ObjectNode inner = envelope.putObject("error").put("message", message);
        if (e.path("param").isTextual()) {
            inner.put("param", e.path("param").textValue());
        }
        return ErrorEnvelope.fromUpstream(status(code), Json.writeBytes(envelope));
    }

    static int status(String code) {
        String c = code.toLowerCase(Locale.ROOT);
        if (c.equals("server_error") || c.equals("internal_error")) {
            return 500;
        }
        if (c.equals("rate_limit_exceeded") || c.equals("insufficient_quota")) {
            return 429;
        }
        if (c.equals("vector_store_timeout")) {
            return 504;
        }
        if (c.startsWith("invalid_") || c.contains("image") || c.endsWith("_policy") || c.endsWith("_policy_violation")
                || c.equals("context_length_exceeded") || c.equals("data_residency_mismatch")) {
            return 400;
        }
        return 502;
    }
}
