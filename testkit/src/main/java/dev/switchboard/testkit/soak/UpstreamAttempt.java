package dev.switchboard.testkit.soak;

/**
 * One attempt the gateway made on a soak upstream, as that upstream saw it: which soak request (read from the
 * prompt), its place among the request's attempts, the fault it was scheduled, how many content chunks it
 * delivered, and when the gateway's connection was found closed (0 while it was not).
 */
public final class UpstreamAttempt {
    final String id;
    final String provider;
    final long request;
    final int index;
    final Fault fault;
    final long startNanos;
    volatile int chunksSent;
    volatile boolean completed;
    /** When a write failed or a hang ended because the gateway had left; 0 when never seen. */
    volatile long closedNanos;
    /** The fake itself ended the attempt early (a scheduled reset or error): nothing for the gateway to close. */
    volatile boolean endedByFake;
    /** While the fake still serves it (writing, pausing or hanging on the gateway's connection). */
    volatile boolean open;

    UpstreamAttempt(String id, String provider, long request, int index, Fault fault) {
        this.id = id;
        this.provider = provider;
        this.request = request;
        this.index = index;
        this.fault = fault;
        this.startNanos = System.nanoTime();
    }

    @Override
    public String toString() {
        return id + "(" + fault + (completed ? ", complete" : ", " + chunksSent + " chunks") + ")";
    }
}
