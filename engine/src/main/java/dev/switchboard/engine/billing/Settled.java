package dev.switchboard.engine.billing;

/**
 * What settling one request did.
 *
 * @param chargedNanos      what the balance paid (0 when already settled)
 * @param balanceAfterNanos the balance right after (as of the first settlement when already settled)
 * @param alreadySettled    the request had been settled before: nothing was charged or recorded again
 */
public record Settled(long chargedNanos, long balanceAfterNanos, boolean alreadySettled) {
}
