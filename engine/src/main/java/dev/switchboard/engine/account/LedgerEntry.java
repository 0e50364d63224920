package dev.switchboard.engine.account;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One movement of a user's balance, written in the same transaction as the balance change.
 *
 * @param id                opaque id ({@code led_...})
 * @param userId            whose balance moved
 * @param kind              credit (money in) or charge (a billed request)
 * @param amountNanos       the signed change to the balance: positive for credits, negative for charges
 * @param balanceAfterNanos the balance right after this entry
 * @param requestId         the billed request, for charges; unique across the ledger so a retried
 *                          settlement cannot charge twice (docs/contracts.md §3); empty for credits
 * @param note              free text given with a credit
 * @param createdAt         millisecond precision
 */
public record LedgerEntry(String id, String userId, Kind kind, long amountNanos, long balanceAfterNanos,
                          Optional<String> requestId, Optional<String> note, Instant createdAt) {

    /** What moved the balance. */
    public enum Kind {
        CREDIT,
        CHARGE
    }

    public LedgerEntry {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(note, "note");
        Objects.requireNonNull(createdAt, "createdAt");
    }
}
