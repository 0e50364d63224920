package dev.switchboard.testkit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The system clock moved forward by an offset a test sets: time still passes as it does (an SDK that sleeps before
 * retrying sees the gateway's time move on), but a test can skip most of a one-minute window without waiting it.
 */
public final class ShiftedClock extends Clock {
    private volatile Duration offset = Duration.ZERO;

    /** Moves this clock {@code by} further ahead of the system clock. */
    public void shift(Duration by) {
        offset = offset.plus(by);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(offset);
    }
}
