package dev.switchboard.model;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * An error as the caller will see it: HTTP status, the {@code type} slug of the spec's error envelope, a
 * message, the offending parameter (on validation errors), and whether another attempt (another
 * provider, later) could succeed. Client writers render it in the caller's format.
 */
public record GatewayError(int status, String type, String message, Optional<String> param, boolean retryable) {
    public GatewayError {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(param, "param");
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("error status must be 4xx or 5xx: " + status);
        }
    }

    /** HTTP statuses after which another attempt (another provider or key) may succeed (docs/contracts.md §1). */
    public static final Set<Integer> RETRYABLE_STATUSES = Set.of(408, 409, 425, 429, 500, 502, 503, 504, 529);

    /** Whether an upstream answering {@code status} is worth another attempt elsewhere. */
    public static boolean retryableStatus(int status) {
        return RETRYABLE_STATUSES.contains(status);
    }

    /** 400 naming the offending field. */
    public static GatewayError invalid(String param, String message) {
        return new GatewayError(400, "invalid_request_error", message, Optional.of(param), false);
    }

    /** 400 not tied to a single field (e.g. malformed JSON). */
    public static GatewayError invalidRequest(String message) {
        return new GatewayError(400, "invalid_request_error", message, Optional.empty(), false);
    }

    public static GatewayError unauthorized(String message) {
        return new GatewayError(401, "auth_required", message, Optional.empty(), false);
    }

    public static GatewayError insufficientQuota(String message) {
        return new GatewayError(402, "insufficient_quota", message, Optional.empty(), false);
    }

    public static GatewayError forbidden(String type, String message) {
        return new GatewayError(403, type, message, Optional.empty(), false);
    }

    public static GatewayError modelNotFound(String model) {
        return new GatewayError(404, "model_not_found",
                "The model '" + model + "' does not exist or you do not have access to it. See GET /v1/models.",
                Optional.of("model"), false);
    }

    public static GatewayError notFound(String message) {
        return new GatewayError(404, "not_found", message, Optional.empty(), false);
    }

    public static GatewayError rateLimited(String message) {
        return new GatewayError(429, "rate_limit_error", message, Optional.empty(), true);
    }

    public static GatewayError upstreamUnavailable(String message) {
        return new GatewayError(503, "api_error", message, Optional.empty(), true);
    }

    public static GatewayError internal(String message) {
        return new GatewayError(500, "api_error", message, Optional.empty(), false);
    }

    /**
     * This error with its {@code param} spelt as a client format spells it: the pipeline names request fields
     * by their canonical (chat-completions) names, which a format may call otherwise ({@code messages} is
     * {@code contents} in content-parts, {@code input} in Responses). Names not in {@code names} are kept.
     */
    public GatewayError withParamNames(java.util.Map<String, String> names) {
        return param.filter(names::containsKey)
                .map(p -> new GatewayError(status, type, message, Optional.of(names.get(p)), retryable))
                .orElse(this);
    }

    /** The exception that carries this error up to the edge. */
    public GatewayException toException() {
        return new GatewayException(this);
    }
}
