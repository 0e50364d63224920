package dev.switchboard.engine.skills;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Uses counted off the request path are written exactly: none lost to a concurrent flush or a failed write. */
class SkillUsesTest {
    private final Map<String, Long> written = new ConcurrentHashMap<>();

    private void write(Map<String, Long> batch) {
        batch.forEach((id, n) -> written.merge(id, n, Long::sum));
    }

    @Test
    void usesCountedWhileFlushesRunAreAllWrittenOnce() throws Exception {
        SkillUses uses = new SkillUses(this::write);
        int threads = 8;
        int perThread = 5_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
        CountDownLatch start = new CountDownLatch(1);
        AtomicBoolean counting = new AtomicBoolean(true);
        pool.submit(() -> {
            start.await();
            while (counting.get()) {
                uses.flush();
            }
            return null;
        });
        List<java.util.concurrent.Future<?>> counters = new java.util.ArrayList<>();
        for (int t = 0; t < threads; t++) {
            counters.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < perThread; i++) {
                    uses.count(List.of("a", "b", i % 2 == 0 ? "a" : "c"));
                }
                return null;
            }));
        }
        start.countDown();
        for (var f : counters) {
            f.get(60, TimeUnit.SECONDS);
        }
        counting.set(false);
        pool.shutdown();
        assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        uses.close();

        long total = (long) threads * perThread;
        assertThat(written).containsEntry("a", total + total / 2).containsEntry("b", total).containsEntry("c", total / 2);
    }

    @Test
    void aFailedWriteKeepsItsCountsForTheNextOne() {
        AtomicInteger attempts = new AtomicInteger();
        SkillUses uses = new SkillUses(batch -> {
            if (attempts.incrementAndGet() == 1) {
                throw new IllegalStateException("database down");
            }
            write(batch);
        });
        uses.count(List.of("a", "a", "b"));
        assertThatThrownBy(uses::flush).hasMessageContaining("database down");
        uses.count(List.of("a"));
        uses.flush();

        assertThat(written).containsExactlyInAnyOrderEntriesOf(Map.of("a", 3L, "b", 1L));
    }

    @Test
    void theBackgroundWriterWritesOnItsOwnAndCloseWritesTheRest() throws Exception {
        CountDownLatch wrote = new CountDownLatch(1);
        SkillUses uses = new SkillUses(batch -> {
            write(batch);
            wrote.countDown();
        }, java.time.Duration.ofMillis(20));
        uses.count(List.of("a"));
        assertThat(wrote.await(30, TimeUnit.SECONDS)).isTrue();
        uses.count(List.of("b"));
        uses.close();

        assertThat(written).containsExactlyInAnyOrderEntriesOf(Map.of("a", 1L, "b", 1L));
    }
}
