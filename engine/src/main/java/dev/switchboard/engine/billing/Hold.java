package dev.switchboard.engine.billing;

import java.time.Instant;
import java.util.Objects;

/**
 * A reservation against a user's balance for one request, keyed by its request id: what the request may
 * cost at most, held from admission until its settlement (or, if it never settles, until {@code expiresAt},
 * when the sweeper releases it).
 */
public record Hold(String requestId, String userId, String keyId, long amountNanos, Instant expiresAt, Instant createdAt) {
    public Hold {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(expiresAt, "expiresAt");
        Objects.requireNonNull(createdAt, "createdAt");
        if (amountNanos < 0) {
            throw new IllegalArgumentException("a hold is not negative: " + amountNanos);
        }
    }
}
