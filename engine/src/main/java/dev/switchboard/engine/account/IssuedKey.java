package dev.switchboard.engine.account;

import java.util.Objects;

/**
 * A key just issued, with its secret: the only time the secret exists outside the caller's hands.
 * Show it once and drop it; {@link #toString()} prints the prefix only, so logging this record by
 * mistake leaks nothing.
 */
public record IssuedKey(ApiKey key, String secret) {

    public IssuedKey {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(secret, "secret");
    }

    @Override
    public String toString() {
        return "IssuedKey[key=" + key + ", secret=" + key.prefix() + "...(redacted)]";
    }
}
