package dev.switchboard.engine.limits;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.engine.account.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.ArrayList;
import org.junit.jupiter.api.Test;

/** The counting rules of every limit kind, on the in-memory store (the Redis store passes the same contract). */
class InMemoryLimitStoreTest extends LimitStoreContract {
    private final MutableClock clock = new MutableClock(START);

    @Override
    protected LimitStore store() {
        return new InMemoryLimitStore(clock);
    }

    @Override
    protected void advance(Duration d) {
        clock.advance(d);
    }

    @Override
    protected Instant now() {
        return clock.instant();
    }

    @Test
    void concurrentChecksNeverGrantMoreThanTheCeiling() throws Exception {
        LimitStore store = store();
        Limit rpm = new Limit(LimitKind.REQUESTS_PER_MINUTE, "key:c:rpm", 10, Limit.KEY);
        AtomicInteger granted = new AtomicInteger();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> all = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                String id = "req_" + i;
                all.add(pool.submit(() -> {
                    if (store.reserve(id, List.of(rpm), 0).granted()) {
                        granted.incrementAndGet();
                    }
                }));
            }
            for (Future<?> f : all) {
                f.get();
            }
        }
        assertThat(granted).hasValue(10);
    }

    @Test
    void aRequestOverTheWholeCeilingCanNeverFit() {
        LimitStore store = store();
        Limit day = new Limit(LimitKind.TOKENS_PER_DAY, "key:k:day", 100, Limit.KEY);

        LimitCheck check = store.reserve("r1", List.of(day), 101);

        assertThat(check.granted()).isFalse();
        assertThat(check.tallies().getFirst().refusedUntil()).contains(Instant.MAX);
        assertThat(check.tallies().getFirst().remaining()).isEqualTo(100);
        assertThat(check.tallies().getFirst().refusedUntil()).isNotEqualTo(Optional.empty());
    }
}
