package dev.switchboard.engine.billing;

import java.time.Instant;
import java.util.Objects;

/**
 * A key's spend budget as a reservation checks it, in the same transaction as the balance: the key's charges since
 * {@code periodStart} (its usage records' {@code charged_nanos}) plus what its open holds reserve plus the new
 * reservation must not exceed {@code capNanos}. Checked against the same holds as the balance, so requests admitted
 * at once on any number of instances never reserve more than the budget together.
 *
 * @param capNanos    positive
 * @param periodStart when the budget's current period began (UTC); {@link Instant#EPOCH} for a budget without periods
 */
public record SpendCap(long capNanos, Instant periodStart) {
    public SpendCap {
        Objects.requireNonNull(periodStart, "periodStart");
        if (capNanos <= 0) {
            throw new IllegalArgumentException("a spend cap is positive: " + capNanos);
        }
    }
}
