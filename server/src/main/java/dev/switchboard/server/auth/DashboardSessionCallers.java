package dev.switchboard.server.auth;

import dev.switchboard.engine.pipeline.Caller;
import dev.switchboard.engine.session.Sessions.SignedIn;
import dev.switchboard.server.api.SessionCallers;
import dev.switchboard.server.http.Exchange;
import java.util.List;
import java.util.Optional;

/**
 * {@link SessionCallers} over dashboard sessions. The caller is the signed-in user with their plan and no key
 * restriction; its key id is {@code session:<session id>}, naming no stored key, because these routes read (models,
 * the user's own usage) and never reach the chat pipeline, where a request is billed and limited under a real key.
 */
public final class DashboardSessionCallers implements SessionCallers {
    private final SessionAuth sessions;

    public DashboardSessionCallers(SessionAuth sessions) {
        this.sessions = sessions;
    }

    @Override
    public Optional<Caller> caller(Exchange ex) {
        if (ex.header(SessionAuth.CSRF_HEADER).isEmpty()) {
            return Optional.empty();
        }
        SignedIn who = sessions.requireWithToken(ex);
        return Optional.of(new Caller(who.user().id(), "session:" + who.session().id(), who.user().plan(), List.of(),
                List.of()));
    }
}
