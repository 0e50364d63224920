package dev.switchboard.engine.session;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A dashboard login session as stored. The cookie value that opens it is never stored (only its SHA-256);
 * {@code id} names the session in logs and lists and opens nothing.
 *
 * @param csrfToken  required as {@code x-csrf-token} on every state-changing request that uses the session
 * @param lastSeenAt when it was last used (updated at most once per {@link SessionPolicy#touchEvery()})
 * @param expiresAt  the absolute end, whatever the activity
 */
public record Session(String id, String userId, String csrfToken, Instant createdAt, Instant lastSeenAt, Instant expiresAt) {
    public Session {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(csrfToken, "csrfToken");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(lastSeenAt, "lastSeenAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    @Override
    public String toString() {
        return "Session[id=" + id + ", userId=" + userId + ", csrfToken=[redacted], createdAt=" + createdAt + ", lastSeenAt="
                + lastSeenAt + ", expiresAt=" + expiresAt + "]";
    }

    /** Whether it is still good at {@code now}: before its absolute end and used within {@code idle}. */
    public boolean liveAt(Instant now, Duration idle) {
        return now.isBefore(expiresAt) && now.isBefore(lastSeenAt.plus(idle));
    }
}
