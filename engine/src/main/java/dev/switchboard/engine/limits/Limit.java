package dev.switchboard.engine.limits;

import java.util.Objects;

/**
 * One limit a request is checked against: its kind, the counter it is counted in (shared by every request of the
 * same key, or of the same user on a plan), its ceiling, and whose limit it is, for the caller's message.
 *
 * @param counter a stable name of the counter, e.g. {@code key:key_123:rpm}; stores derive their keys from it
 * @param ceiling positive
 * @param owner   whose limit it is, as a message says it: {@code the key's}, {@code the pro plan's}
 */
public record Limit(LimitKind kind, String counter, long ceiling, String owner) {
    /** The owner word of a key's own limits. */
    public static final String KEY = "the key's";

    /** The owner words of the limits of plan {@code planId}: {@code the pro plan's}. */
    public static String plan(String planId) {
        return "the " + planId + " plan's";
    }

    public Limit {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(counter, "counter");
        Objects.requireNonNull(owner, "owner");
        if (ceiling <= 0) {
            throw new IllegalArgumentException("a limit's ceiling is positive: " + ceiling);
        }
    }

    /** How a message names it: {@code the key's rpm (10 requests per minute)}. */
    public String describe() {
        return owner + " " + kind.label() + " (" + ceiling + " " + kind.unit() + ")";
    }
}
