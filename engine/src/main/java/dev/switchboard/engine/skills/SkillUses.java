package dev.switchboard.engine.skills;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts the uses of skills (spec 2.11 {@code use_count}: billed requests that applied the skill) off the
 * request path: {@link #count} adds to an in-memory tally, and a background thread writes the tally every
 * {@code interval} as one transaction of relative updates ({@code use_count = use_count + n}), so instances
 * writing at once add up in the database.
 *
 * <p>Exact: a tally is taken out of the map key by key with an atomic remove, so a use counted while a flush
 * runs lands in the next one, never in neither; a flush that fails puts its counts back for the next attempt.
 * {@link #close} writes what is left. Only a process killed outright loses the uses of its last interval.
 */
public final class SkillUses implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SkillUses.class);

    /** Counts nothing (a pipeline without skills). */
    public static final SkillUses NONE = new SkillUses(counts -> { });

    private final Consumer<Map<String, Long>> sink;
    private final Map<String, Long> pending = new ConcurrentHashMap<>();
    private final Optional<ScheduledExecutorService> flusher;

    /** Writes through {@code sink} when told to ({@link #flush}, {@link #close}); no background thread. */
    public SkillUses(Consumer<Map<String, Long>> sink) {
        this.sink = sink;
        this.flusher = Optional.empty();
    }

    /** Writes through {@code sink} every {@code interval} and on {@link #close}. */
    public SkillUses(Consumer<Map<String, Long>> sink, Duration interval) {
        this.sink = sink;
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().daemon()
                .name("switchboard-skill-uses").unstarted(r));
        long ms = Math.max(1, interval.toMillis());
        timer.scheduleWithFixedDelay(this::flushQuietly, ms, ms, TimeUnit.MILLISECONDS);
        this.flusher = Optional.of(timer);
    }

    /** One use of each skill named. */
    public void count(Collection<String> skillIds) {
        for (String id : skillIds) {
            pending.merge(id, 1L, Long::sum);
        }
    }

    /** Writes the tally now; what fails to be written stays for the next flush. */
    public synchronized void flush() {
        Map<String, Long> batch = new LinkedHashMap<>();
        for (String id : pending.keySet()) {
            Long n = pending.remove(id);
            if (n != null) {
                batch.put(id, n);
            }
        }
        if (batch.isEmpty()) {
            return;
        }
        try {
            sink.accept(batch);
        } catch (RuntimeException e) {
            batch.forEach((id, n) -> pending.merge(id, n, Long::sum));
            throw e;
        }
    }

    private void flushQuietly() {
        try {
            flush();
        } catch (RuntimeException e) {
            LOG.atWarn().setCause(e).log("skill use counts not written yet; kept for the next attempt");
        }
    }

    @Override
    public void close() {
        flusher.ifPresent(timer -> {
            timer.shutdown();
            try {
                timer.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        flushQuietly();
    }
}
