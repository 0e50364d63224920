package dev.switchboard.server.auth;

import dev.switchboard.engine.account.AdminKeys;
import dev.switchboard.engine.session.DashboardRole;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.GatewayException;
import dev.switchboard.server.http.Exchange;
import dev.switchboard.server.http.Guard;
import java.util.Objects;
import java.util.Optional;

/**
 * The guards of the admin routes (docs/admin.md), declared where the routes are registered so that no handler checks
 * the caller itself:
 * <ul>
 *   <li>{@link #admin()}, the admin API's: the admin key ({@code Authorization: Bearer}); or, a request without an
 *       {@code Authorization} header that carries a cookie, the dashboard session of a user with the admin role with
 *       its CSRF token on every method (the admin API's reads show other users' data).
 *   <li>{@link #operator()}, catalog curation's: the admin key when the request has an {@code Authorization} header;
 *       otherwise the dashboard session (CSRF token on writes) of a user with the admin role.
 * </ul>
 * Refusals: 401 without credentials, with a key that is not the admin key, or without a live session; 403 for a
 * session without its CSRF token or of a user who is not an admin.
 */
public record RouteGuards(Guard admin, Guard operator) {
    public RouteGuards {
        Objects.requireNonNull(admin, "admin");
        Objects.requireNonNull(operator, "operator");
    }

    /** The guards that recognise {@code adminKeys} and admins' sessions of {@code sessions}. */
    public static RouteGuards of(AdminKeys adminKeys, SessionAuth sessions) {
        Guard operator = ex -> {
            if (ex.header("authorization").isPresent()) {
                requireAdminKey(adminKeys, ex);
                return;
            }
            if (sessions.require(ex).role() != DashboardRole.ADMIN) {
                throw notOperator();
            }
        };
        Guard admin = ex -> {
            if (ex.header("authorization").isEmpty() && ex.header("cookie").isPresent()) {
                if (sessions.requireWithToken(ex).role() != DashboardRole.ADMIN) {
                    throw notOperator();
                }
                return;
            }
            requireAdminKey(adminKeys, ex);
        };
        return new RouteGuards(admin, operator);
    }

    private static void requireAdminKey(AdminKeys adminKeys, Exchange ex) {
        Optional<String> presented = ex.header("authorization")
                .filter(h -> h.regionMatches(true, 0, "Bearer ", 0, 7)).map(h -> h.substring(7).trim());
        if (presented.isEmpty()) {
            throw GatewayError.unauthorized("Missing admin key. Send it as Authorization: Bearer <admin key>.").toException();
        }
        if (!adminKeys.isAdmin(presented.get())) {
            throw new GatewayError(401, "invalid_request_error", "Invalid admin key.", Optional.empty(), false).toException();
        }
    }

    private static GatewayException notOperator() {
        return GatewayError.forbidden("forbidden", "Only the operator (the admin key, or a user with the admin role) may"
                + " do this.").toException();
    }
}
