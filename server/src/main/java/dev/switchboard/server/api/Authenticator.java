package dev.switchboard.server.api;

import dev.switchboard.engine.account.ApiKeys;
import dev.switchboard.engine.account.Authentication;
import dev.switchboard.engine.account.Principal;
import dev.switchboard.engine.pipeline.Caller;
import dev.switchboard.model.GatewayError;
import dev.switchboard.server.http.Exchange;
import dev.switchboard.engine.account.KeyScope;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the key a request presents into a {@link Caller}, or refuses it: 401 when the key is missing or
 * unusable (the reason goes to the log, not to the caller), 403 when the key's scope excludes the endpoint. The
 * caller's plan is the one in force now: a plan past its expiry is pay-as-you-go. A request without a key to an
 * endpoint that is not a chat endpoint may instead be the dashboard's, served under the signed-in user's session
 * ({@link SessionCallers}); chat endpoints take API keys only. An exchange authenticated by a key gets the
 * rate-limit headers ({@link RateLimitHeaders}) of what admission says, whatever the answer.
 */
public final class Authenticator {
    private static final Logger LOG = LoggerFactory.getLogger(Authenticator.class);
    /** The endpoints that spend money: API keys only, never a dashboard session. */
    static final Set<String> CHAT_ENDPOINTS = Set.of(KeyScope.CHAT_COMPLETIONS, KeyScope.MESSAGES, KeyScope.COUNT_TOKENS,
            KeyScope.GENERATE_CONTENT, KeyScope.RESPONSES);

    private final ApiKeys keys;
    private final Clock clock;
    private final SessionCallers sessions;

    public Authenticator(ApiKeys keys) {
        this(keys, Clock.systemUTC(), SessionCallers.NONE);
    }

    /** @param clock decides whether the caller's plan has expired (an expired plan is pay-as-you-go) */
    public Authenticator(ApiKeys keys, Clock clock) {
        this(keys, clock, SessionCallers.NONE);
    }

    /** With {@code sessions}: a request without an API key may be the dashboard's, under its session. */
    public Authenticator(ApiKeys keys, SessionCallers sessions) {
        this(keys, Clock.systemUTC(), sessions);
    }

    /** As {@link #Authenticator(ApiKeys, Clock, SessionCallers)}. */
    public Authenticator(ApiKeys keys, SessionCallers sessions, Clock clock) {
        this(keys, clock, sessions);
    }

    /** Both: plans judged by {@code clock}, and the dashboard's session for requests without a key. */
    public Authenticator(ApiKeys keys, Clock clock, SessionCallers sessions) {
        this.keys = keys;
        this.clock = clock;
        this.sessions = sessions;
    }

    /** The endpoints whose callers read Anthropic's rate-limit headers. */
    private static boolean anthropic(String endpoint) {
        return endpoint.equals(MessagesApi.ENDPOINT) || endpoint.equals(MessagesApi.COUNT_TOKENS_ENDPOINT);
    }

    /** Whether the request presents an API key where {@code where} looks, or the dashboard's session token (reads only). */
    public boolean presentsCredentials(Exchange ex, Credentials where) {
        return where.presented(ex).isPresent() || ex.header("x-csrf-token").isPresent();
    }

    public Caller authenticate(Exchange ex, Credentials where, String endpoint) {
        // A credential header sent twice is refused, not resolved: a proxy in front may check one copy and this
        // gateway use the other, so whichever it picked, the two could disagree on who is calling.
        for (String name : List.of("authorization", "x-api-key", "x-goog-api-key")) {
            if (ex.headers(name).size() > 1) {
                throw new GatewayError(400, "invalid_request_error", "The " + name + " header was sent "
                        + ex.headers(name).size() + " times; send one API key, once.", Optional.of(name), false).toException();
            }
        }
        Optional<String> key = where.presented(ex);
        if (key.isEmpty() && !CHAT_ENDPOINTS.contains(endpoint)) {
            Optional<Caller> dashboard = sessions.caller(ex);
            if (dashboard.isPresent()) {
                return dashboard.get();
            }
        }
        String presented = key.orElseThrow(() -> GatewayError.unauthorized(
                (ex.header("cookie").filter(c -> c.contains("sb_session=")).isPresent()
                        ? (CHAT_ENDPOINTS.contains(endpoint) ? "Dashboard session cookies are not accepted here. "
                                : "Dashboard session cookies are not accepted here without the session's x-csrf-token header. ")
                        : "")
                        + "Missing API key. Send it as " + where.hint() + ".").toException());
        return switch (keys.authenticate(presented)) {
            case Authentication.Authenticated a -> {
                Principal p = a.principal();
                if (!p.key().scope().allowsEndpoint(endpoint)) {
                    throw GatewayError.forbidden("insufficient_scope",
                            "This API key may not call the " + endpoint + " endpoint.").toException();
                }
                ex.beforeCommit(RateLimitHeaders.hook(ex, clock, anthropic(endpoint)));
                yield new Caller(p.user().id(), p.key().id(), p.user().activePlan(clock.instant()), p.key().scope().models(),
                        p.key().scope().endpoints(), p.key().limits());
            }
            case Authentication.Rejected r -> {
                LOG.atInfo().addKeyValue("request_id", ex.requestId()).addKeyValue("reason", r.reason().name())
                        .log("API key rejected");
                throw new GatewayError(401, "invalid_request_error", "Invalid API key.", Optional.empty(), false)
                        .toException();
            }
        };
    }
}
