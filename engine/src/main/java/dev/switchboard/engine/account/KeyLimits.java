package dev.switchboard.engine.account;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The limits of one API key; each is absent when the key has none. Enforced per key, on every gateway instance
 * together (shared counters when Redis is configured).
 *
 * @param rpm         requests per minute, a sliding window
 * @param tpm         tokens (input + output) per minute, a sliding window
 * @param dailyTokens tokens (input + output) per UTC day
 * @param maxParallel requests in flight at once
 * @param budget      spend per period
 * @throws AccountException INVALID naming {@code rpm}, {@code tpm}, {@code daily_tokens} or {@code max_parallel}
 *         when one is not positive
 */
public record KeyLimits(OptionalLong rpm, OptionalLong tpm, OptionalLong dailyTokens, OptionalLong maxParallel,
                        Optional<KeyBudget> budget) {
    /** A key without limits. */
    public static final KeyLimits NONE = new KeyLimits(OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(),
            OptionalLong.empty(), Optional.empty());

    public KeyLimits {
        positive("rpm", Objects.requireNonNull(rpm, "rpm"));
        positive("tpm", Objects.requireNonNull(tpm, "tpm"));
        positive("daily_tokens", Objects.requireNonNull(dailyTokens, "dailyTokens"));
        positive("max_parallel", Objects.requireNonNull(maxParallel, "maxParallel"));
        Objects.requireNonNull(budget, "budget");
    }

    /** Whether any limit is set. */
    public boolean any() {
        return rpm.isPresent() || tpm.isPresent() || dailyTokens.isPresent() || maxParallel.isPresent() || budget.isPresent();
    }

    public KeyLimits withRpm(OptionalLong v) {
        return new KeyLimits(v, tpm, dailyTokens, maxParallel, budget);
    }

    public KeyLimits withTpm(OptionalLong v) {
        return new KeyLimits(rpm, v, dailyTokens, maxParallel, budget);
    }

    public KeyLimits withDailyTokens(OptionalLong v) {
        return new KeyLimits(rpm, tpm, v, maxParallel, budget);
    }

    public KeyLimits withMaxParallel(OptionalLong v) {
        return new KeyLimits(rpm, tpm, dailyTokens, v, budget);
    }

    public KeyLimits withBudget(Optional<KeyBudget> v) {
        return new KeyLimits(rpm, tpm, dailyTokens, maxParallel, v);
    }

    private static void positive(String field, OptionalLong value) {
        value.ifPresent(v -> AccountFields.positive(field, v));
    }
}
