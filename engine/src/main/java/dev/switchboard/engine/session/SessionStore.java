package dev.switchboard.engine.session;

import dev.switchboard.engine.account.KeyHash;
import java.time.Instant;
import java.util.Optional;

/**
 * The storage port of dashboard sessions, shared by every gateway instance: a session created or deleted
 * through one instance is seen by the next lookup on any instance (nothing is cached). Sessions are found by
 * the SHA-256 of their cookie value only.
 */
public interface SessionStore {
    /** Saves a new session under the hash of its cookie value. */
    void create(Session session, KeyHash tokenHash);

    Optional<Session> find(KeyHash tokenHash);

    /** Sets the last-use time to {@code at} if it is older than {@code olderThan}. */
    void touch(KeyHash tokenHash, Instant at, Instant olderThan);

    /** Deletes the session; whether there was one. */
    boolean delete(KeyHash tokenHash);

    /** Deletes every session of the user (sign out everywhere, a new password); how many there were. */
    int deleteAllOf(String userId);

    /** Deletes sessions past their absolute end ({@code expiresAt <= now}) or unused since {@code idleCutoff}. */
    int deleteExpired(Instant now, Instant idleCutoff);
}
