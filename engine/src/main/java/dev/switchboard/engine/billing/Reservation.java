package dev.switchboard.engine.billing;

/**
 * How a reservation against a balance ended ({@link BalanceStore#reserve}, {@link BalanceStore#raise}): taken, or
 * refused because the balance not yet held does not cover it, or because it would take the request's key over its
 * spend budget ({@link SpendCap}). A refused reservation changed nothing.
 */
public enum Reservation {
    HELD,
    /** What the user's balance has beyond other requests' holds does not cover it (or the user does not exist). */
    SHORT_OF_BALANCE,
    /** The key's charges in its budget period plus its open holds plus this amount would exceed its budget. */
    OVER_KEY_BUDGET;

    public boolean held() {
        return this == HELD;
    }
}
