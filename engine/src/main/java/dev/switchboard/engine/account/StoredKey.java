package dev.switchboard.engine.account;

import java.util.Objects;

/** A key as found by its hash: the description plus the stored hash, for a constant-time re-check. */
public record StoredKey(ApiKey key, KeyHash hash) {

    public StoredKey {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(hash, "hash");
    }
}
