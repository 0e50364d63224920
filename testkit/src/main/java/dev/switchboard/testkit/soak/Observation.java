package dev.switchboard.testkit.soak;

/**
 * What the client of one soak request saw.
 *
 * @param n           the soak request number (also in its prompt)
 * @param requestId   the gateway's {@code x-request-id}; empty when no response came
 * @param kind        how it ended for the client
 * @param status      the HTTP status (0 when no response came)
 * @param text        every text delta received, joined
 * @param inBandError a stream carried an error event
 * @param properEnd   a stream ended with its format's end (or a terminal error event)
 * @param problem     what was wrong with an error envelope or a stream's framing; empty when nothing
 * @param outputTokens the output tokens the answer reported; -1 when none
 */
public record Observation(long n, String requestId, ClientFormat format, boolean streamed, Kind kind, int status, String text,
                          boolean inBandError, boolean properEnd, String problem, long outputTokens, long startNanos,
                          long endNanos, long abortNanos) {
    /** How a request ended for its client. */
    public enum Kind {
        /** A 200 read to its end. */
        ANSWERED,
        /** A 4xx or 5xx before any byte. */
        REFUSED,
        /** The client left mid-stream on purpose. */
        ABORTED,
        /** The connection failed or ended early (expected only around a kill). */
        BROKEN
    }
}
