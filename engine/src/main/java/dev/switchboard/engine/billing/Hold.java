package dev.switchboard.engine.billing;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A reservation against a user's balance for one request, keyed by its request id: what the request may
 * cost at most, held from admission until its settlement (or, if it never settles, until {@code expiresAt},
 * when the sweeper releases it). The hold records the request's key, so a key's spend budget ({@code keyBudget},
 * checked when the hold is taken or raised) counts what the key's requests in flight hold.
 */
public record Hold(String requestId, String userId, String keyId, long amountNanos, Instant expiresAt, Instant createdAt,
                   Optional<SpendCap> keyBudget) {
    public Hold {
        Objects.requireNonNull(keyBudget, "keyBudget");
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(expiresAt, "expiresAt");
        Objects.requireNonNull(createdAt, "createdAt");
        if (amountNanos < 0) {
            throw new IllegalArgumentException("a hold is not negative: " + amountNanos);
        }
    }

    /** A hold of a key without a spend budget. */
    public Hold(String requestId, String userId, String keyId, long amountNanos, Instant expiresAt, Instant createdAt) {
        this(requestId, userId, keyId, amountNanos, expiresAt, createdAt, Optional.empty());
    }
}
