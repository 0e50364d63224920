package dev.switchboard.testkit.soak;

/**
 * What the soak's fake upstream does on one attempt, with its share of attempts in percent. Each is a way real
 * providers fail; the shares are those of the soak's schedule.
 */
public enum Fault {
    /** A 5xx with the provider's error envelope. */
    SERVER_ERROR(8),
    /** A 429 with {@code Retry-After: 1}. */
    RATE_LIMITED(5),
    /** A TCP reset before any response byte (a refused or dropped request). */
    RESET_BEFORE_HEADERS(5),
    /** {@code 200} and stream headers, then nothing until the gateway leaves (its first-byte or idle deadline). */
    STALL_AFTER_HEADERS(4),
    /** Some content chunks, then a TCP reset. */
    RESET_MID_STREAM(4),
    /** The first byte only after the gateway's first-byte deadline has passed. */
    FIRST_BYTE_TOO_LATE(3),
    /** A stream whose first event is not valid JSON. */
    MALFORMED_SSE(2),
    /** A complete answer. */
    NONE(69);

    final int percent;

    Fault(int percent) {
        this.percent = percent;
    }

    /** Whether the gateway must move on to the next target after this attempt, whatever the caller. */
    boolean failsBeforeContent() {
        return this != NONE && this != RESET_MID_STREAM;
    }

    /** Whether the attempt delivers content before it fails (a committed stream reports it in-band). */
    boolean failsAfterContent() {
        return this == RESET_MID_STREAM;
    }
}
