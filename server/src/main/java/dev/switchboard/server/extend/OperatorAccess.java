package dev.switchboard.server.extend;

import dev.switchboard.engine.session.DashboardRole;
import dev.switchboard.model.GatewayError;
import dev.switchboard.server.admin.AdminApi;
import dev.switchboard.server.auth.SessionAuth;
import dev.switchboard.server.http.Exchange;

/**
 * Who may curate the catalog: a request with the admin key ({@code Authorization: Bearer}), or the dashboard
 * session (with its CSRF token on writes) of a user whose role is {@code admin}.
 */
public final class OperatorAccess {
    private final AdminApi admin;
    private final SessionAuth sessions;

    public OperatorAccess(AdminApi admin, SessionAuth sessions) {
        this.admin = admin;
        this.sessions = sessions;
    }

    public void authorize(Exchange ex) {
        if (ex.header("authorization").isPresent()) {
            admin.authorize(ex);
            return;
        }
        if (sessions.require(ex).role() != DashboardRole.ADMIN) {
            throw notOperator();
        }
    }

    /**
     * Refuses a request unless it is the dashboard session of an admin carrying the session's CSRF token (on every
     * method: the admin API's reads show other users' data): 401 without a session, 403 otherwise.
     */
    public static void requireAdminSession(SessionAuth sessions, Exchange ex) {
        if (sessions.requireWithToken(ex).role() != DashboardRole.ADMIN) {
            throw notOperator();
        }
    }

    private static dev.switchboard.model.GatewayException notOperator() {
        return GatewayError.forbidden("forbidden", "Only the operator (the admin key, or a user with the admin role) may"
                + " do this.").toException();
    }
}
