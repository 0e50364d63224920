package dev.switchboard.engine.account;

import java.util.Objects;

/**
 * Who is calling: the key presented (usable at the time of authentication) and its owner as read
 * at the same time. The balance in {@link User} is a snapshot; billing must not trust it for
 * admission, which uses its own conditional update.
 */
public record Principal(User user, ApiKey key) {

    public Principal {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(key, "key");
        if (!key.userId().equals(user.id())) {
            throw new IllegalArgumentException("key " + key.id() + " belongs to " + key.userId() + ", not " + user.id());
        }
    }
}
