package dev.switchboard.engine.account;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The storage port for users, their balances and API keys. Implementations are shared by every
 * gateway instance (one database), so each method is atomic on its own and reads see every write
 * committed before they started: a revocation is seen by the next lookup on any instance.
 *
 * <p>Records handed in carry their ids and timestamps (the services assign them); ledger entries the
 * store writes as a consequence of an operation get their ids from the store. Timestamps are kept
 * to the millisecond. Failures of the storage itself (unreachable, full disk) surface as unchecked
 * exceptions of the implementation; refusals the caller can act on are {@link AccountException}s.
 */
public interface AccountStore {

    /**
     * Saves a new user. When {@code user.balanceNanos()} is positive, a {@link LedgerEntry.Kind#CREDIT}
     * entry for that opening balance is written in the same transaction, so the ledger always
     * explains the balance.
     *
     * @throws AccountException CONFLICT("name") or CONFLICT("email") when already taken by another
     *         user, CONFLICT("id") when the id is
     */
    void createUser(User user, Optional<PasswordHash> passwordHash);

    /** The user with this id, if any. */
    Optional<User> findUser(String userId);

    /** The user with this exact name, if any. */
    Optional<User> findUserByName(String name);

    /** One page of users, oldest first: {@code limit} users after skipping {@code offset}. */
    List<User> users(int offset, int limit);

    /** How many users there are. */
    long countUsers();

    /** Whether at least one user exists (first-start detection). */
    boolean hasUsers();

    /** The user's password verifier, empty when the user has none or does not exist. */
    Optional<PasswordHash> passwordHash(String userId);

    /**
     * Adds {@code amountNanos} to the balance and writes the matching credit entry, both or neither.
     * Concurrent credits to one user never lose an update.
     *
     * @param amountNanos positive
     * @return the entry written, whose {@code balanceAfterNanos} is the new balance
     * @throws AccountException NOT_FOUND when there is no such user; CONFLICT("amount_usd") when the
     *         balance would overflow
     */
    default LedgerEntry addCredit(String userId, long amountNanos, Optional<String> note, Instant at) {
        return addCredit(userId, amountNanos, note, Optional.empty(), at);
    }

    /**
     * {@link #addCredit(String, long, Optional, Instant)} with an idempotency key: the first credit with a
     * given key for a user is written; a repeat (also a concurrent one, on any instance) writes nothing and
     * returns the entry of the first.
     *
     * @throws AccountException CONFLICT("idempotency_key") when the key was used for a different amount
     */
    LedgerEntry addCredit(String userId, long amountNanos, Optional<String> note, Optional<String> idempotencyKey, Instant at);

    /**
     * Puts the user on {@code plan} until {@code expiresAt} (empty: no end).
     *
     * @return whether the user exists
     */
    boolean setPlan(String userId, String plan, Optional<Instant> expiresAt);

    /** The user's most recent {@code limit} ledger entries, newest first. */
    List<LedgerEntry> ledger(String userId, int limit);

    /**
     * Saves a new key under the SHA-256 hash of its secret. The secret itself never reaches the store.
     *
     * @throws AccountException NOT_FOUND when the owner does not exist; CONFLICT("id") when the id
     *         or the hash is already stored
     */
    void createKey(ApiKey key, KeyHash hash);

    /**
     * The key whose secret hashes to {@code hash}, revoked and expired ones included (deciding
     * whether it may be used is the caller's job). Matching is exact.
     */
    Optional<StoredKey> findKeyByHash(KeyHash hash);

    /** The key with this id, revoked and expired ones included. */
    Optional<ApiKey> findKey(String keyId);

    /**
     * Stores the name, scope, limits and expiry of {@code key} over those of the stored key with its id (the
     * rest of a key never changes).
     *
     * @return whether a key with this id exists
     */
    boolean updateKey(ApiKey key);

    /** Every key of the user, revoked ones included, oldest first; empty for an unknown user. */
    List<ApiKey> keysOf(String userId);

    /**
     * Marks the key revoked at {@code at}. Idempotent: revoking again keeps the first revocation time.
     *
     * @return whether a key with this id exists
     */
    boolean revokeKey(String keyId, Instant at);
}
