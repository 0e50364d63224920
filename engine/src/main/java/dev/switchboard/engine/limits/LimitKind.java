package dev.switchboard.engine.limits;

import java.time.Duration;

/**
 * The kinds of limit, each with its counting rule. Every store implements the same rules (docs/contracts.md,
 * limits):
 * <ul>
 *   <li>{@link #REQUESTS_PER_MINUTE}: a sliding window of one minute over admitted requests (a log of admission
 *       times, not fixed buckets, so there is no double burst at a minute's edge);
 *   <li>{@link #TOKENS_PER_MINUTE}: a sliding window of one minute over each admitted request's tokens: its
 *       estimate from admission until settlement corrects it to the actual count;
 *   <li>{@link #TOKENS_PER_DAY}: tokens per UTC day, reserved and corrected the same way;
 *   <li>{@link #PARALLEL_REQUESTS}: requests admitted and not yet settled (a lease bounds what a crashed
 *       instance leaves behind).
 * </ul>
 */
public enum LimitKind {
    REQUESTS_PER_MINUTE("rpm", "requests per minute"),
    TOKENS_PER_MINUTE("tpm", "tokens per minute"),
    TOKENS_PER_DAY("daily token cap", "tokens per UTC day"),
    PARALLEL_REQUESTS("max_parallel", "requests in flight");

    /** The length of the sliding windows. */
    public static final Duration WINDOW = Duration.ofMinutes(1);
    /** How long a request counts as in flight at most, should its settlement never come (a crashed instance). */
    public static final Duration PARALLEL_LEASE = Duration.ofHours(1);

    private final String label;
    private final String unit;

    LimitKind(String label, String unit) {
        this.label = label;
        this.unit = unit;
    }

    /** How the limit is called in messages: {@code rpm}, {@code daily token cap}. */
    public String label() {
        return label;
    }

    /** What the ceiling counts, for messages: {@code requests per minute}. */
    public String unit() {
        return unit;
    }

    /** Whether the limit counts tokens (and so takes the request's estimate at admission). */
    public boolean countsTokens() {
        return this == TOKENS_PER_MINUTE || this == TOKENS_PER_DAY;
    }

    /** Whether the limit counts requests in a window (reported as the request headers). */
    public boolean countsRequests() {
        return this == REQUESTS_PER_MINUTE;
    }
}
