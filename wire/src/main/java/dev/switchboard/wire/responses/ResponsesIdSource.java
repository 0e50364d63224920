package dev.switchboard.wire.responses;

/**
 * Supplies item ids to the pure writers, which may not invent them (no randomness in {@code wire}).
 * The engine hands in unique ids; fixtures hand in a counter.
 */
@FunctionalInterface
public interface ResponsesIdSource {
    /** A fresh id starting with {@code prefix} and {@code _}, e.g. {@code msg_...}, {@code fc_...}, {@code rs_...}. */
    String next(String prefix);
}
