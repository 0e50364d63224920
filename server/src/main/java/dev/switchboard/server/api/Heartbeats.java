package dev.switchboard.server.api;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Keeps open streams alive and notices clients that left while the upstream was silent (a reasoning model
 * can think for minutes without an event), within one {@code interval} of their leaving.
 *
 * <p>The server library tells a handler nothing about its connection until a write fails, and a write to a
 * connection the client closed succeeds once (the kernel queues it; the client's side answers with a
 * reset) and fails only the next time. So a stream quiet for half the interval gets a heartbeat (a frame
 * every client of the format ignores), and each heartbeat is followed shortly after by a probe, a second
 * heartbeat, which fails when the client has gone; the sink then cancels the upstream request at once.
 * Worst case from the client leaving to the cancel: half the interval of quiet, a tick, the probe delay and
 * a tick, which is at most the interval.
 *
 * <p>As the one registry of open streams, it also ends them all when a shutdown's grace period is over
 * ({@link #endOpenStreams}).
 */
public final class Heartbeats implements AutoCloseable {
    private final Set<SseSink> sinks = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService timer;
    private final long quietNanos;
    private final long probeDelayNanos;

    public Heartbeats(Duration interval) {
        long intervalNanos = interval.toNanos();
        this.quietNanos = intervalNanos / 2;
        this.probeDelayNanos = Math.min(intervalNanos / 4, Duration.ofSeconds(1).toNanos());
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().daemon()
                .name("switchboard-heartbeats").unstarted(r));
        long tickNanos = Math.max(Duration.ofMillis(10).toNanos(), intervalNanos / 8);
        timer.scheduleWithFixedDelay(this::beat, tickNanos, tickNanos, TimeUnit.NANOSECONDS);
    }

    void register(SseSink sink) {
        sinks.add(sink);
    }

    void unregister(SseSink sink) {
        sinks.remove(sink);
    }

    private void beat() {
        long now = System.nanoTime();
        for (SseSink sink : sinks) {
            try {
                sink.heartbeatIfQuiet(now, quietNanos, probeDelayNanos);
            } catch (RuntimeException ignored) {
                // one broken stream must not stop the others' heartbeats
            }
        }
    }

    /**
     * Ends every open stream now with an in-band error saying {@code why} (shutdown: the grace period is over);
     * returns how many were open. Streams not yet started (still waiting for their first upstream event) are not
     * open yet: the caller cuts their upstream calls.
     */
    public int endOpenStreams(String why) {
        int n = 0;
        for (SseSink sink : sinks) {
            sink.endByGateway(why);
            n++;
        }
        return n;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
