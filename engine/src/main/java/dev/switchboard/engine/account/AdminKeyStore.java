package dev.switchboard.engine.account;

import java.time.Instant;
import java.util.Optional;

/**
 * The storage port for the generated admin key: only its hash, written at most once. Shared by all
 * gateway instances, so the "first start" that generates it is decided by the database, not by
 * whichever instance believes it came first.
 */
public interface AdminKeyStore {

    /** The stored admin key hash, if one was ever saved. */
    Optional<KeyHash> adminKeyHash();

    /**
     * Saves {@code hash} unless an admin key hash is already stored; atomic against concurrent
     * callers (exactly one of them wins).
     *
     * @return whether this call saved it
     */
    boolean saveAdminKeyHashIfAbsent(KeyHash hash, Instant at);
}
