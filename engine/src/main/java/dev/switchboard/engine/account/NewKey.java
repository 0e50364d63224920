package dev.switchboard.engine.account;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What it takes to issue an API key; validated on construction (that the expiry lies in the future
 * is checked at issue time, against the clock).
 *
 * @param name        trimmed, 1..100 characters
 * @param scope       what the key may call
 * @param limits      the key's limits
 * @param expiresAt   when the key stops working, if ever
 * @throws AccountException INVALID naming {@code name}
 */
public record NewKey(String name, KeyScope scope, KeyLimits limits, Optional<Instant> expiresAt) {

    /** The name used when none is given. */
    public static final String DEFAULT_NAME = "default";

    public NewKey {
        name = AccountFields.name("name", Objects.requireNonNull(name, "name"));
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    /** An unrestricted key that never expires. */
    public static NewKey unrestricted(String name) {
        return new NewKey(name, KeyScope.ALL, KeyLimits.NONE, Optional.empty());
    }
}
