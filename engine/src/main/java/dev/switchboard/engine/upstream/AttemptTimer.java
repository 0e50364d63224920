package dev.switchboard.engine.upstream;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The deadlines of one upstream attempt, checked by the {@link Watchdog}: the first byte must arrive within
 * {@code firstByte} of the start, then no silence may last longer than {@code idle}, and the whole
 * attempt may not exceed {@code total}. When one is missed the watchdog aborts the attempt: it interrupts
 * the thread waiting for headers (socket I/O of a virtual thread is interruptible) or closes the response
 * being read, and {@link #expired()} tells the caller which deadline it was.
 */
public final class AttemptTimer {
    /** Which deadline was missed. */
    public enum Expiry { NONE, FIRST_BYTE, IDLE, TOTAL }

    private final long startNanos;
    private final long firstByteNanos;
    private final long idleNanos;
    private final long totalNanos;
    private volatile long lastActivityNanos;
    private volatile boolean firstByteSeen;
    private volatile Expiry expired = Expiry.NONE;
    private final AtomicReference<Runnable> abort = new AtomicReference<>();
    private volatile boolean done;

    AttemptTimer(Duration firstByte, Duration idle, Duration total, long now) {
        this.startNanos = now;
        this.lastActivityNanos = now;
        this.firstByteNanos = firstByte.toNanos();
        this.idleNanos = idle.toNanos();
        this.totalNanos = total.toNanos();
    }

    /** Records that bytes arrived (resets the idle deadline; the first call ends the first-byte wait). */
    public void activity() {
        lastActivityNanos = System.nanoTime();
        firstByteSeen = true;
    }

    /** What to do when a deadline is missed; replaced as the attempt moves from waiting to reading. */
    void onExpiry(Runnable action) {
        abort.set(action);
    }

    /** The attempt ended; the watchdog forgets it. */
    public void finish() {
        done = true;
    }

    boolean isDone() {
        return done;
    }

    public Expiry expired() {
        return expired;
    }

    /** Checks the deadlines at {@code now}; aborts the attempt once when one is missed. */
    void check(long now) {
        if (done || expired != Expiry.NONE) {
            return;
        }
        Expiry e = Expiry.NONE;
        if (now - startNanos > totalNanos) {
            e = Expiry.TOTAL;
        } else if (!firstByteSeen && now - startNanos > firstByteNanos) {
            e = Expiry.FIRST_BYTE;
        } else if (firstByteSeen && now - lastActivityNanos > idleNanos) {
            e = Expiry.IDLE;
        }
        if (e != Expiry.NONE) {
            expired = e;
            Runnable r = abort.get();
            if (r != null) {
                r.run();
            }
        }
    }
}
