package dev.switchboard.engine.idempotency;

import java.time.Instant;
import java.util.Collection;

/**
 * Where claims on idempotency keys and the answers they produced are kept, shared by every instance. Each
 * operation is one atomic statement (or one transaction), so two requests can never both win a claim.
 */
public interface IdempotencyStore {

    /** What {@link #claim} found. */
    sealed interface Claim {
        /** The caller owns the key now and must run the request. */
        record Won() implements Claim {
        }

        /** Another request with the same body owns the key and has not finished. */
        record Pending() implements Claim {
        }

        /** The answer of the same request, to replay. */
        record Done(StoredAnswer answer) implements Claim {
        }

        /** The key was used with another request (another body or endpoint). */
        record Mismatch() implements Claim {
        }
    }

    /**
     * Claims {@code scope} for {@code owner}: wins when no row exists (insert-if-absent), when the row's claim
     * was abandoned ({@code lease_until} before {@code now}) or its answer expired; otherwise reports the row.
     */
    Claim claim(String scope, String fingerprint, String owner, Instant now, Instant leaseUntil, Instant expiresAt);

    /** Keeps {@code owner}'s pending claims on {@code scopes} alive until {@code leaseUntil}. */
    void renew(Collection<String> scopes, String owner, Instant leaseUntil);

    /** Stores {@code answer} on {@code owner}'s claim, to be replayed until {@code expiresAt}. */
    void complete(String scope, String owner, StoredAnswer answer, Instant expiresAt);

    /** Gives up {@code owner}'s claim (the request ended without an answer worth replaying). */
    void release(String scope, String owner);

    /** Forgets answers that expired before {@code now}; how many. */
    int prune(Instant now);
}
