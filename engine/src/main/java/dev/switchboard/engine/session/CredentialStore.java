package dev.switchboard.engine.session;

import dev.switchboard.engine.account.PasswordHash;
import java.util.Optional;

/** The storage port of what signing in needs beyond the account store: logins, roles and password changes. */
public interface CredentialStore {
    /** The user whose name is exactly {@code login}, else whose (lower-cased) e-mail address is {@code login}. */
    Optional<String> userIdForLogin(String login);

    /** The user's role; {@link DashboardRole#USER} for an unknown id. */
    DashboardRole role(String userId);

    /** Whether the user exists (and now has the role). */
    boolean setRole(String userId, DashboardRole role);

    /** Whether the user exists (and now has the password). */
    boolean setPassword(String userId, PasswordHash hash);
}
