package dev.switchboard.wire.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.GatewayError;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.Redaction;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;

/**
 * How every format turns a provider's error answer into the error a caller may see, so the caller gets
 * the same {@code type} whichever provider failed and whichever format it speaks: the spec's type for
 * the status (section 7), the provider's message with credentials redacted ({@link Redaction}) and its
 * length capped, and retryability by status ({@link GatewayError#retryableStatus}).
 *
 * <p>Not part of the wire API: formats share it, callers outside {@code wire} must not.
 */
public final class UpstreamErrors {
    /** Longer provider messages are cut here (a proxy's HTML page can be megabytes). */
    public static final int MAX_MESSAGE = 1000;
    /** The 4xx rows of the spec's table that are not {@code invalid_request_error}. */
    private static final Map<Integer, String> TYPES = Map.of(401, "auth_required", 402, "insufficient_quota",
            403, "model_access_denied", 404, "model_not_found", 429, "rate_limit_error");

    private UpstreamErrors() {
    }

    /**
     * The spec's error type for an HTTP status (section 7): 400 {@code invalid_request_error}, 401
     * {@code auth_required}, 402 {@code insufficient_quota}, 403 {@code model_access_denied}, 404
     * {@code model_not_found}, 429 {@code rate_limit_error}, any 5xx {@code api_error}; other 4xx are
     * {@code invalid_request_error}.
     */
    public static String type(int status) {
        return status >= 500 ? "api_error" : TYPES.getOrDefault(status, "invalid_request_error");
    }

    /** The status a caller may be shown for an upstream's: itself when 4xx or 5xx, else 502 (a bad gateway answer). */
    public static int status(int upstreamStatus) {
        return upstreamStatus >= 400 && upstreamStatus <= 599 ? upstreamStatus : 502;
    }

    /** A provider's message as it may travel on: credentials redacted, at most {@link #MAX_MESSAGE} characters. */
    public static String message(String raw) {
        String m = Redaction.secrets(raw);
        return m.length() > MAX_MESSAGE ? m.substring(0, MAX_MESSAGE) + "..." : m;
    }

    /** The error for an upstream's answer of {@code status}: the spec's type, the cleaned message, retryable by status. */
    public static GatewayError error(int status, String message, Optional<String> param) {
        return error(status, message, param, GatewayError.retryableStatus(status));
    }

    /** As {@link #error(int, String, Optional)} where the provider's habits make retryability differ from the status's. */
    public static GatewayError error(int status, String message, Optional<String> param, boolean retryable) {
        return new GatewayError(status, type(status), message(message), param, retryable);
    }

    /**
     * The error for an answer that breaks the upstream's own protocol (not its format's JSON, a stream cut
     * before its end): a retryable 502 {@code api_error}, since another provider may answer properly.
     * {@code message} is the gateway's own words, never the provider's.
     */
    public static GatewayError broken(String message) {
        return new GatewayError(502, "api_error", message, Optional.empty(), true);
    }

    /** The message when the upstream gave none. */
    public static String withoutMessage(int status) {
        return "The upstream answered HTTP " + status + " without a message.";
    }

    /** The body as JSON, or empty when it is not JSON (a proxy's HTML page, a cut body). */
    public static Optional<JsonNode> json(byte[] body) {
        try {
            return Optional.ofNullable(Json.MAPPER.readTree(body)).filter(n -> !n.isMissingNode());
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
