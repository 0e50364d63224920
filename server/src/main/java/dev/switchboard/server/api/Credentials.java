package dev.switchboard.server.api;

import dev.switchboard.server.http.Exchange;
import java.util.Locale;
import java.util.Optional;

/**
 * Where each client format carries the caller's API key (spec 5): always {@code Authorization: Bearer};
 * the messages format also {@code x-api-key}; the content-parts format also {@code x-goog-api-key} and the
 * {@code key} query parameter. Cookies are never accepted on these endpoints.
 */
public enum Credentials {
    BEARER, BEARER_OR_X_API_KEY, GOOGLE;

    public Optional<String> presented(Exchange ex) {
        Optional<String> bearer = ex.header("authorization")
                .filter(h -> h.regionMatches(true, 0, "Bearer ", 0, 7))
                .map(h -> h.substring(7).trim())
                .filter(s -> !s.isEmpty());
        return switch (this) {
            case BEARER -> bearer;
            case BEARER_OR_X_API_KEY -> ex.header("x-api-key").map(String::trim).filter(s -> !s.isEmpty()).or(() -> bearer);
            case GOOGLE -> ex.query("key").or(() -> ex.header("x-goog-api-key")).map(String::trim)
                    .filter(s -> !s.isEmpty()).or(() -> bearer);
        };
    }

    /** How to tell a caller where the key goes. */
    public String hint() {
        return switch (this) {
            case BEARER -> "Authorization: Bearer <API key>";
            case BEARER_OR_X_API_KEY -> "x-api-key: <API key> or Authorization: Bearer <API key>";
            case GOOGLE -> "?key=<API key>, x-goog-api-key: <API key> or Authorization: Bearer <API key>";
        };
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
