package dev.switchboard.engine.account;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * An API key's stored description. It never holds the secret: only {@link #prefix()}, the first 12
 * characters, which is enough for a person to tell keys apart and safe to log and show.
 *
 * @param id          opaque id ({@code key_...}), used to revoke
 * @param userId      the owner, who is billed
 * @param name        a label chosen at creation
 * @param prefix      first 12 characters of the secret ({@code sk-sb-} + 6)
 * @param scope       models and endpoint groups it may call
 * @param rpm         requests-per-minute limit, when set
 * @param dailyTokens daily token cap, when set
 * @param expiresAt   the key is refused from this instant on, when set
 * @param revokedAt   when it was revoked; a revoked key is refused at once, everywhere
 * @param createdAt   creation time, millisecond precision
 */
public record ApiKey(String id, String userId, String name, String prefix, KeyScope scope, OptionalInt rpm,
                     OptionalLong dailyTokens, Optional<Instant> expiresAt, Optional<Instant> revokedAt, Instant createdAt) {

    public ApiKey {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(rpm, "rpm");
        Objects.requireNonNull(dailyTokens, "dailyTokens");
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
}
