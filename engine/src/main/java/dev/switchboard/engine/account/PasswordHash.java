package dev.switchboard.engine.account;

import java.util.Objects;

/**
 * A stored password verifier in the self-describing form
 * {@code pbkdf2-sha256$<iterations>$<salt base64>$<hash base64>} (see {@link Passwords}).
 * Not a secret in itself, but an offline-guessing target, so it is kept out of {@code toString()}.
 */
public record PasswordHash(String encoded) {

    public PasswordHash {
        Objects.requireNonNull(encoded, "encoded");
        if (!encoded.startsWith(Passwords.SCHEME + "$")) {
            throw new IllegalArgumentException("expected an encoded hash starting with " + Passwords.SCHEME + "$");
        }
    }

    @Override
    public String toString() {
        return "PasswordHash[redacted]";
    }
}
