package dev.switchboard.engine.account;

import java.util.Objects;

/**
 * A key's spend budget: at most {@code nanos} nano-dollars of charges in each {@code period} (OpenRouter's key
 * limits). Spend counts every request billed to the key's balance, plus what requests in flight hold.
 *
 * @param nanos  positive
 * @param period when the budget is whole again
 */
public record KeyBudget(long nanos, BudgetPeriod period) {
    public KeyBudget {
        Objects.requireNonNull(period, "period");
        if (nanos <= 0) {
            throw AccountException.invalid("budget_usd", "budget_usd: expected a positive amount, got " + Usd.format(nanos));
        }
    }
}
