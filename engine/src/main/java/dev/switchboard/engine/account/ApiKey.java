package dev.switchboard.engine.account;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * An API key's stored description. It never holds the secret: only {@link #prefix()}, the first 12
 * characters, which is enough for a person to tell keys apart and safe to log and show.
 *
 * @param id          opaque id ({@code key_...}), used to revoke
 * @param userId      the owner, who is billed
 * @param name        a label chosen at creation
 * @param prefix      first 12 characters of the secret ({@code sk-sb-} + 6)
 * @param scope       models and endpoint groups it may call
 * @param limits      request rate, token caps, parallelism and spend budget ({@link KeyLimits#NONE}: none)
 * @param expiresAt   the key is refused from this instant on, when set
 * @param revokedAt   when it was revoked; a revoked key is refused at once, everywhere
 * @param createdAt   creation time, millisecond precision
 */
public record ApiKey(String id, String userId, String name, String prefix, KeyScope scope, KeyLimits limits,
                     Optional<Instant> expiresAt, Optional<Instant> revokedAt, Instant createdAt) {

    public ApiKey {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(expiresAt, "expiresAt");
        Objects.requireNonNull(revokedAt, "revokedAt");
        Objects.requireNonNull(createdAt, "createdAt");
    }

    /** Whether the key was revoked. */
    public boolean revoked() {
        return revokedAt.isPresent();
    }

    /** Whether the key has expired at {@code now} (an expiry instant is already too late). */
    public boolean expiredAt(Instant now) {
        return expiresAt.map(e -> !now.isBefore(e)).orElse(false);
    }

    /** This key with another name, scope, limits and expiry (what {@code PATCH /admin/v1/keys/{id}} may change). */
    public ApiKey withSettings(String newName, KeyScope newScope, KeyLimits newLimits, Optional<Instant> newExpiresAt) {
        return new ApiKey(id, userId, newName, prefix, newScope, newLimits, newExpiresAt, revokedAt, createdAt);
    }
}
