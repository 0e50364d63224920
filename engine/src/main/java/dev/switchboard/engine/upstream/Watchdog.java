package dev.switchboard.engine.upstream;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One daemon thread that enforces the deadlines of every running upstream attempt. A sweep every
 * {@code tick} is cheaper than a scheduled task per attempt or per chunk, and a few tens of
 * milliseconds of slack is irrelevant next to LLM timeouts measured in seconds.
 */
public final class Watchdog implements AutoCloseable {
    private final Set<AttemptTimer> timers = ConcurrentHashMap.newKeySet();
    private final Thread thread;
    private final long tickMillis;
    private volatile boolean running = true;

    public Watchdog(Duration tick) {
        this.tickMillis = Math.max(1, tick.toMillis());
        this.thread = Thread.ofPlatform().daemon().name("switchboard-watchdog").start(this::loop);
    }

    /** Starts timing an attempt now. */
    public AttemptTimer start(Duration firstByte, Duration idle, Duration total) {
        AttemptTimer t = new AttemptTimer(firstByte, idle, total, System.nanoTime());
        timers.add(t);
        return t;
    }

    private void loop() {
        while (running) {
            try {
                Thread.sleep(tickMillis);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            timers.removeIf(AttemptTimer::isDone);
            for (AttemptTimer t : timers) {
                try {
                    t.check(now);
                } catch (RuntimeException ignored) {
                    // an abort action failing (e.g. closing an already closed socket) must not stop the watchdog
                }
            }
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
