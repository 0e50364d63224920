package dev.switchboard.server.api;

import dev.switchboard.engine.pipeline.Caller;
import dev.switchboard.server.http.Exchange;
import java.util.Optional;

/**
 * How the dashboard reads the routes made for API keys (models, allowed parameters, the user's own credits and
 * usage): a request that presents no API key but the dashboard session's cookie and its CSRF token
 * ({@code x-csrf-token}) is served as the signed-in user. Never on the chat endpoints ({@link Authenticator} asks
 * only for other endpoints): those take API keys alone, so a cookie can never spend money. Without the token header
 * the cookie is ignored.
 */
public interface SessionCallers {
    /** Refuses nothing: no request is ever served by its session. */
    SessionCallers NONE = ex -> Optional.empty();

    /**
     * The caller of a request that carries the CSRF token header; empty when it carries none. A header with no live
     * session behind it is a 401, a token that does not match the session a 403.
     */
    Optional<Caller> caller(Exchange ex);
}
