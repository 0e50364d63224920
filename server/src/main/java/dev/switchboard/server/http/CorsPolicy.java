package dev.switchboard.server.http;

import java.util.List;
import java.util.Optional;

/**
 * Which browser origins may call the gateway ({@code cors.allowed_origins}). Empty: none (the default; a
 * browser page on another origin cannot read any answer). {@code *}: any origin. Otherwise exact origins
 * such as {@code https://app.example.com}. Keys travel in headers, never cookies, so credentials are not
 * allowed cross-origin and {@code *} is safe to answer as is.
 */
public record CorsPolicy(List<String> allowedOrigins) {
    /** Headers a browser client may read from an answer. */
    static final String EXPOSED = "x-request-id, request-id, retry-after, x-ratelimit-limit-requests, "
            + "x-ratelimit-remaining-requests, x-ratelimit-reset-requests, x-ratelimit-limit-tokens, "
            + "x-ratelimit-remaining-tokens, x-ratelimit-reset-tokens";
    /** How long a browser may cache a preflight answer, in seconds. */
    static final String MAX_AGE = "600";

    public static final CorsPolicy NONE = new CorsPolicy(List.of());

    public CorsPolicy {
        allowedOrigins = List.copyOf(allowedOrigins);
    }

    /** The {@code Access-Control-Allow-Origin} value for a request from {@code origin}, when it is allowed. */
    Optional<String> allowOrigin(String origin) {
        if (allowedOrigins.contains("*")) {
            return Optional.of("*");
        }
        return allowedOrigins.contains(origin) ? Optional.of(origin) : Optional.empty();
    }
}
