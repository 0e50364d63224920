package dev.switchboard.wire.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.GatewayError;
import dev.switchboard.wire.internal.ErrorEnvelope;
import dev.switchboard.wire.internal.UpstreamErrors;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Error envelopes of the content-parts format both ways.
 *
 * <p>To clients: the spec's envelope (spec 7, docs/contracts.md §4) {@code {"error": {message, type,
 * param, code}}} with {@code code} the HTTP status as a string, plus Google's {@code status} word so the
 * GenAI SDKs find what they read. The official Java SDK (google-genai 1.70.0, {@code ApiException.
 * throwFromResponse}) takes the code of an HTTP error from the status line and reads only
 * {@code error.message} and {@code error.status} from the body, so a string {@code code} is accepted.
 * Inside a stream there is no status line: the SDK ({@code ResponseStream.next}) reads
 * {@code error.code} only when it is a JSON integer and otherwise reports 500 for every error, so the
 * in-band element carries the status as a number (the spec does not define in-stream errors).
 *
 * <p>From Google: {@code {"error": {code, message, status, details: [{reason}]}}}.
 */
final class GeminiErrors {
    private GeminiErrors() {
    }

    /** Canonical field names as this format spells them, for errors the pipeline raised (spec 2.9). */
    static final Map<String, String> PARAM_NAMES = Map.of(
            "messages", "contents",
            "system", "systemInstruction",
            "max_tokens", "generationConfig.maxOutputTokens",
            "temperature", "generationConfig.temperature",
            "top_p", "generationConfig.topP",
            "top_k", "generationConfig.topK",
            "stop", "generationConfig.stopSequences",
            "response_format", "generationConfig.responseMimeType",
            "tool_choice", "toolConfig.functionCallingConfig");

    /** The HTTP error body for a client; a canonical field name in {@code param} is spelt as this format spells it. */
    static ObjectNode body(GatewayError error) {
        GatewayError e = error.withParamNames(PARAM_NAMES);
        ObjectNode root = ErrorEnvelope.body(e);
        ((ObjectNode) root.get("error")).put("status", statusWord(e.status()));
        return root;
    }

    /** The in-band error element of a stream: as {@link #body} but with a numeric {@code code}. */
    static ObjectNode streamElement(GatewayError e) {
        ObjectNode root = body(e);
        ((ObjectNode) root.get("error")).put("code", e.status());
        return root;
    }

    /** Google's RPC status word for an HTTP status (google.rpc.Code's HTTP mapping). */
    static String statusWord(int status) {
        return switch (status) {
            case 400, 413, 422 -> "INVALID_ARGUMENT";
            case 401 -> "UNAUTHENTICATED";
            case 402 -> "FAILED_PRECONDITION"; // Google reports billing problems this way
            case 403 -> "PERMISSION_DENIED";
            case 404 -> "NOT_FOUND";
            case 408, 504 -> "DEADLINE_EXCEEDED";
            case 409 -> "ABORTED";
            case 429 -> "RESOURCE_EXHAUSTED";
            case 499 -> "CANCELLED";
            case 501 -> "UNIMPLEMENTED";
            case 502, 503, 529 -> "UNAVAILABLE";
            default -> status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION";
        };
    }

    /**
     * The error of a failed upstream call, keeping Google's message. Two Google habits are translated:
     * a bad API key is a 400 with reason {@code API_KEY_INVALID} (not a 401), reported as 401 so the
     * engine rotates to the next key; {@code FAILED_PRECONDITION} (region not served, billing off) is a
     * problem of that provider account, reported as a retryable 403 so another provider is tried.
     */
    static GatewayError fromUpstream(int status, byte[] body) {
        int s = UpstreamErrors.status(status);
        Optional<JsonNode> error = UpstreamErrors.json(body).map(j -> j.isArray() && !j.isEmpty() ? j.get(0) : j)
                .map(j -> j.path("error")).filter(JsonNode::isObject);
        String raw = new String(body, StandardCharsets.UTF_8).strip();
        String message = error.map(e -> e.path("message")).filter(JsonNode::isTextual).map(JsonNode::textValue)
                .filter(m -> !m.isBlank())
                .orElse(raw.isEmpty() ? UpstreamErrors.withoutMessage(status) : raw);
        String word = error.map(e -> e.path("status")).filter(JsonNode::isTextual).map(JsonNode::textValue).orElse("");
        return translate(s, word, error.map(GeminiErrors::reasons).orElse(Set.of()), message);
    }

    /** The error of an in-band {@code error} object of an upstream stream. */
    static GatewayError fromStreamError(JsonNode error) {
        String word = error.path("status").isTextual() ? error.path("status").textValue() : "";
        int status = error.path("code").canConvertToInt() && error.path("code").isIntegralNumber()
                ? error.path("code").intValue()
                : statusOf(word);
        if (status < 400 || status > 599) {
            status = statusOf(word);
        }
        String message = error.path("message").isTextual() && !error.path("message").textValue().isBlank()
                ? error.path("message").textValue()
                : "The upstream stream failed" + (word.isEmpty() ? "." : " with " + word + ".");
        return translate(status, word, reasons(error), message);
    }

    private static GatewayError translate(int status, String word, Set<String> reasons, String message) {
        if (reasons.contains("API_KEY_INVALID") || status == 400 && message.contains("API key not valid")) {
            return UpstreamErrors.error(401, message, Optional.empty());
        }
        if (word.equals("FAILED_PRECONDITION") && status == 400) {
            return UpstreamErrors.error(403, message, Optional.empty(), true);
        }
        return UpstreamErrors.error(status, message, Optional.empty());
    }

    private static Set<String> reasons(JsonNode error) {
        HashSet<String> out = new HashSet<>();
        for (JsonNode d : error.path("details")) {
            if (d.path("reason").isTextual()) {
                out.add(d.path("reason").textValue().toUpperCase(Locale.ROOT));
            }
        }
        return out;
    }

    /** The HTTP status of a status word, for in-band errors without a numeric code. */
    private static int statusOf(String word) {
        return switch (word) {
            case "INVALID_ARGUMENT", "FAILED_PRECONDITION", "OUT_OF_RANGE" -> 400;
            case "UNAUTHENTICATED" -> 401;
            case "PERMISSION_DENIED" -> 403;
            case "NOT_FOUND" -> 404;
            case "ABORTED", "ALREADY_EXISTS" -> 409;
            case "RESOURCE_EXHAUSTED" -> 429;
            case "CANCELLED" -> 499;
            case "UNIMPLEMENTED" -> 501;
            case "UNAVAILABLE" -> 503;
            case "DEADLINE_EXCEEDED" -> 504;
            default -> 500;
        };
    }
}
