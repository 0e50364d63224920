package dev.switchboard.model;

import java.util.Objects;

/**
 * Token counts of one answer.
 *
 * <p>{@code inputTokens} is the whole prompt, cache reads and writes included (the chat-completions and
 * content-parts convention); {@code cacheReadTokens}, {@code cacheWrite5mTokens} and
 * {@code cacheWrite1hTokens} are parts of it. {@code outputTokens} includes {@code reasoningTokens}.
 * {@code provenance} says whether the upstream reported the counts or the gateway estimated them.
 */
public record Usage(long inputTokens, long outputTokens, long reasoningTokens, long cacheReadTokens,
                    long cacheWrite5mTokens, long cacheWrite1hTokens, Provenance provenance) {

    /** Where the numbers come from. */
    public enum Provenance { REPORTED, ESTIMATED }

    public static final Usage EMPTY = new Usage(0, 0, 0, 0, 0, 0, Provenance.REPORTED);

    public Usage {
        Objects.requireNonNull(provenance, "provenance");
        if (inputTokens < 0 || outputTokens < 0 || reasoningTokens < 0 || cacheReadTokens < 0
                || cacheWrite5mTokens < 0 || cacheWrite1hTokens < 0) {
            throw new IllegalArgumentException("token counts must not be negative");
        }
    }

    public static Usage of(long input, long output) {
        return new Usage(input, output, 0, 0, 0, 0, Provenance.REPORTED);
    }

    public long totalTokens() {
        return inputTokens + outputTokens;
    }

    public long cacheWriteTokens() {
        return cacheWrite5mTokens + cacheWrite1hTokens;
    }

    /** Prompt tokens that were neither read from nor written to a cache. */
    public long uncachedInputTokens() {
        return Math.max(0, inputTokens - cacheReadTokens - cacheWriteTokens());
    }

    public Usage withOutputTokens(long output) {
        return new Usage(inputTokens, output, reasoningTokens, cacheReadTokens, cacheWrite5mTokens, cacheWrite1hTokens,
                provenance);
    }

    public Usage withProvenance(Provenance p) {
        return new Usage(inputTokens, outputTokens, reasoningTokens, cacheReadTokens, cacheWrite5mTokens,
                cacheWrite1hTokens, p);
    }

    /**
     * Combines a later report with this one, field by field keeping the larger value: streamed usage
     * arrives in pieces (input at the start, output at the end) and counts are cumulative, never increments.
     */
    public Usage merge(Usage later) {
        return new Usage(Math.max(inputTokens, later.inputTokens), Math.max(outputTokens, later.outputTokens),
                Math.max(reasoningTokens, later.reasoningTokens), Math.max(cacheReadTokens, later.cacheReadTokens),
                Math.max(cacheWrite5mTokens, later.cacheWrite5mTokens),
                Math.max(cacheWrite1hTokens, later.cacheWrite1hTokens),
                provenance == Provenance.ESTIMATED || later.provenance == Provenance.ESTIMATED
                        ? Provenance.ESTIMATED : Provenance.REPORTED);
    }
}
