package dev.switchboard.server.api;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Keeps open streams alive and notices clients that left while the upstream was silent (a reasoning model
 * can think for minutes without an event). The server only learns of a disconnect when it writes, so
 * every stream quiet for {@code interval} gets a heartbeat (an SSE comment, which every SSE client
 * ignores); a failed heartbeat cancels the upstream request at once instead of at its next event.
 */
public final class Heartbeats implements AutoCloseable {
    private final Set<SseSink> sinks = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService timer;
    private final long intervalNanos;

    public Heartbeats(Duration interval) {
        this.intervalNanos = interval.toNanos();
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().daemon()
                .name("switchboard-heartbeats").unstarted(r));
        long tick = Math.max(100, interval.toMillis() / 2);
        timer.scheduleWithFixedDelay(this::beat, tick, tick, TimeUnit.MILLISECONDS);
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
                sink.heartbeatIfQuiet(now, intervalNanos);
            } catch (RuntimeException ignored) {
                // one broken stream must not stop the others' heartbeats
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
