package dev.switchboard.server.api;

import dev.switchboard.engine.account.ApiKeys;
import dev.switchboard.engine.account.Authentication;
import dev.switchboard.engine.account.Principal;
import dev.switchboard.engine.pipeline.Caller;
import dev.switchboard.model.GatewayError;
import dev.switchboard.server.http.Exchange;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the key a request presents into a {@link Caller}, or refuses it: 401 when the key is missing or
 * unusable (the reason goes to the log, not to the caller), 403 when the key's scope excludes the endpoint. An
 * authenticated exchange gets the rate-limit headers ({@link RateLimitHeaders}) of what admission says, whatever
 * the answer.
 */
public final class Authenticator {
    private static final Logger LOG = LoggerFactory.getLogger(Authenticator.class);
    private final ApiKeys keys;
    private final Clock clock;

    public Authenticator(ApiKeys keys, Clock clock) {
        this.keys = keys;
        this.clock = clock;
    }

    /** The endpoints whose callers read Anthropic's rate-limit headers. */
    private static boolean anthropic(String endpoint) {
        return endpoint.equals(MessagesApi.ENDPOINT) || endpoint.equals(MessagesApi.COUNT_TOKENS_ENDPOINT);
    }

    public Caller authenticate(Exchange ex, Credentials where, String endpoint) {
        String presented = where.presented(ex).orElseThrow(() -> GatewayError.unauthorized(
                (ex.header("cookie").filter(c -> c.contains("sb_session=")).isPresent()
                        ? "Dashboard session cookies are not accepted here. " : "")
                        + "Missing API key. Send it as " + where.hint() + ".").toException());
        return switch (keys.authenticate(presented)) {
            case Authentication.Authenticated a -> {
                Principal p = a.principal();
                if (!p.key().scope().allowsEndpoint(endpoint)) {
                    throw GatewayError.forbidden("insufficient_scope",
                            "This API key may not call the " + endpoint + " endpoint.").toException();
                }
                ex.beforeCommit(RateLimitHeaders.hook(ex, clock, anthropic(endpoint)));
                yield new Caller(p.user().id(), p.key().id(), p.user().plan(), p.key().scope().models(),
                        p.key().scope().endpoints(), p.key().limits());
            }
            case Authentication.Rejected r -> {
                LOG.atInfo().addKeyValue("request_id", ex.requestId()).addKeyValue("reason", r.reason().name())
                        .log("API key rejected");
                throw new GatewayError(401, "invalid_request_error", "Invalid API key.", java.util.Optional.empty(), false)
                        .toException();
            }
        };
    }
}
