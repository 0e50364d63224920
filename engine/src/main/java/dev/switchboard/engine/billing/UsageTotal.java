package dev.switchboard.engine.billing;

import java.util.Objects;

/**
 * Usage summed over a group of records ({@code group}: the UTC day {@code 2026-11-24}, the model id or the
 * key id, per {@link GroupBy}; {@code "total"} for all of them).
 */
public record UsageTotal(String group, long requests, long inputTokens, long outputTokens, long reasoningTokens,
                         long cacheReadTokens, long cacheWriteTokens, long costNanos, long chargedNanos) {
    public UsageTotal {
        Objects.requireNonNull(group, "group");
    }

    /** How records are grouped. */
    public enum GroupBy {
        DAY, MODEL, KEY
    }
}
