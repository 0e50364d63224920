package dev.switchboard.server.http;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The edge's side of a graceful stop: counts the requests being served and, once {@link #begin()} was called, tells
 * the edge to refuse new ones (503 and {@code Connection: close}) while those already running finish. One per
 * process; the composition root begins it on SIGTERM and waits with {@link #awaitIdle} for the grace period.
 */
public final class Drain {
    private static final long POLL_MILLIS = 20;
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile boolean draining;

    void enter() {
        inFlight.incrementAndGet();
    }

    void exit() {
        inFlight.decrementAndGet();
    }

    /** From now on new requests are refused (except health, readiness and metrics); idempotent. */
    public void begin() {
        draining = true;
    }

    /** True once {@link #begin()} was called. */
    public boolean draining() {
        return draining;
    }

    /** The requests being served right now (streams included, until their last byte). */
    public int inFlight() {
        return inFlight.get();
    }

    /**
     * Waits until no request is being served, at most {@code within}; true when none is. A request counts from
     * the moment the edge routes it until its response is finished.
     */
    public boolean awaitIdle(Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        while (inFlight.get() > 0) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return inFlight.get() == 0;
            }
        }
        return true;
    }
}
