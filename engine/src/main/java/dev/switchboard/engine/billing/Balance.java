package dev.switchboard.engine.billing;

/**
 * A user's balance as stored: the credit left and how much of it open reservations hold. What a new
 * request can reserve is {@link #availableNanos()}.
 */
public record Balance(long balanceNanos, long heldNanos) {
    public long availableNanos() {
        return Math.max(0, balanceNanos - heldNanos);
    }
}
