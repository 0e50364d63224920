package dev.switchboard.model;

/**
 * Why generation ended. Richer than any single format so that no reason is silently turned into another
 * (e.g. {@code PAUSE_TURN} or {@code CONTEXT_WINDOW_EXCEEDED} must never become a plain stop).
 */
public enum StopReason {
    END_TURN,
    STOP_SEQUENCE,
    MAX_TOKENS,
    TOOL_USE,
    REFUSAL,
    PAUSE_TURN,
    CONTEXT_WINDOW_EXCEEDED,
    /** The upstream gave a reason the gateway does not know; translators render their generic value. */
    OTHER
}
