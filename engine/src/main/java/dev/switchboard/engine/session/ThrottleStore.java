package dev.switchboard.engine.session;

import java.time.Duration;
import java.time.Instant;

/**
 * Counters of events (failed sign-ins, sign-ups) per subject in fixed windows, kept in the database so that
 * every instance counts together. A window starts at the first event after the previous one ended.
 */
public interface ThrottleStore {
    /** An event count and when its window ends. */
    record Count(int events, Instant windowEnds) {
    }

    /** Counts one event for {@code subject} at {@code at}, atomically: the count afterwards. */
    Count hit(String subject, Instant at, Duration window);

    /** The events counted for {@code subject} in the window running at {@code now} (0 when none runs). */
    Count count(String subject, Instant now, Duration window);

    /** Forgets {@code subject}'s events (after a successful sign-in). */
    void clear(String subject);

    /** Forgets every window that ended before {@code now}; how many. */
    int prune(Instant now, Duration window);
}
