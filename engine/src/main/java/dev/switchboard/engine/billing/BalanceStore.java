package dev.switchboard.engine.billing;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The storage port of billing: reservations against balances, their settlement into ledger charges and
 * usage records, and reads of those records. Every method is atomic on its own and correct under any
 * interleaving of callers on any number of gateway instances sharing the database: a reservation is one
 * conditional update ({@code balance - held >= amount}), never a read followed by a write.
 *
 * <p>Holds are keyed by request id, so a limit that reserves money of its own per key (a key's spend
 * budget) can find what a request holds ({@link Hold#keyId()}) and what each key was charged
 * ({@link UsageRecord#chargedNanos()}).
 */
public interface BalanceStore {

    /**
     * Reserves {@code hold.amountNanos()} of the user's balance for the request, if what is not yet held
     * covers it and, when the hold carries its key's budget, the key's charges in the budget period plus its
     * open holds plus this amount stay within it; otherwise changes nothing. Both are checked in one transaction
     * ordered by the user's row, so concurrent reservations of one key never exceed its budget together.
     *
     * @return {@link Reservation#HELD}, or why not ({@link Reservation#SHORT_OF_BALANCE} also when the user does not
     *         exist)
     * @throws IllegalStateException when the request already holds something
     */
    Reservation reserve(Hold hold);

    /**
     * Raises the request's hold to {@code amountNanos} when the balance not yet held covers the difference
     * and the key's budget (if the hold carries it) covers it too (a pricier fallback is about to be tried);
     * a hold already that large is left as it is. A request without a hold (released by the sweeper, or covered
     * by a plan so far) gets a new one the same way.
     *
     * @return {@link Reservation#HELD} when the request now holds at least {@code amountNanos}, else why not
     */
    Reservation raise(Hold hold);

    /**
     * What key {@code keyId} has spent since {@code since} (its usage records' charges) plus what its open holds
     * reserve now: the figure a {@link SpendCap} is checked against, for messages and views.
     */
    long keySpend(String keyId, Instant since);

    /**
     * Settles a billed request in one transaction: releases its hold (if any is left), charges the balance
     * {@code record.chargedNanos()} (capped at what the balance has beyond other requests' holds, so it
     * never goes below zero), writes one ledger charge when the charge is positive, and the usage record
     * with the amount actually charged. Idempotent by request id.
     */
    Settled settle(UsageRecord record);

    /**
     * Releases the request's hold without charging (a request that failed, or was never billable).
     *
     * @return whether there was a hold to release
     */
    boolean release(String requestId);

    /**
     * Releases up to {@code max} holds whose deadline is at or before {@code now} (their requests never
     * settled: the gateway that admitted them died).
     *
     * @return how many were released
     */
    int releaseExpired(Instant now, int max);

    /** The user's balance and what is held of it; empty for an unknown user. */
    Optional<Balance> balance(String userId);

    /** The usage record of one request. */
    Optional<UsageRecord> usage(String requestId);

    /** Usage records matching {@code query}, newest first. */
    List<UsageRecord> usage(UsageQuery query);

    /**
     * Sums of the records matching {@code query} (its page is ignored), one per group, in group order;
     * days are UTC.
     */
    List<UsageTotal> totals(UsageQuery query, UsageTotal.GroupBy groupBy);

    /** The sum of every record matching {@code query} (its page is ignored), grouped as {@code "total"}. */
    UsageTotal total(UsageQuery query);
}
