package dev.switchboard.engine.account;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What it takes to issue an API key; validated on construction (that the expiry lies in the future
 * is checked at issue time, against the clock).
 *
 * @param name        trimmed, 1..100 characters
 * @param scope       what the key may call
 * @param rpm         positive when present
 * @param dailyTokens positive when present
 * @param expiresAt   when the key stops working, if ever
 * @throws AccountException INVALID naming {@code name}, {@code rpm} or {@code daily_tokens}
 */
public record NewKey(String name, KeyScope scope, OptionalInt rpm, OptionalLong dailyTokens, Optional<Instant> expiresAt) {

    /** The name used when none is given. */
    public static final String DEFAULT_NAME = "default";

    public NewKey {
        name = AccountFields.name("name", Objects.requireNonNull(name, "name"));
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(rpm, "rpm");
        rpm.ifPresent(v -> AccountFields.positive("rpm", v));
        Objects.requireNonNull(dailyTokens, "dailyTokens");
        dailyTokens.ifPresent(v -> AccountFields.positive("daily_tokens", v));
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    /** An unrestricted key that never expires. */
    public static NewKey unrestricted(String name) {
        return new NewKey(name, KeyScope.ALL, OptionalInt.empty(), OptionalLong.empty(), Optional.empty());
    }
}
