package dev.switchboard.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.engine.limits.InMemoryLimitStore;
import dev.switchboard.engine.limits.Limit;
import dev.switchboard.engine.limits.LimitCheck;
import dev.switchboard.engine.limits.LimitKind;
import dev.switchboard.engine.limits.LimitStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The counting rules of every limit kind, on the in-memory store (the Redis store passes the same contract). */
class InMemoryLimitStoreTest extends LimitStoreContract {
    private final SessionsTest.MovableClock clock = new SessionsTest.MovableClock(START);

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
    void aRequestOverTheWholeCeilingCanNeverFit() {
        LimitStore store = store();
        Limit day = new Limit(LimitKind.TOKENS_PER_DAY, "key:k:day", 100, Limit.KEY);

        LimitCheck check = store.reserve("r1", List.of(day), 101);

        assertThat(check.granted()).isFalse();
        assertThat(check.tallies().getFirst().refusedUntil()).contains(Instant.MAX);
        assertThat(check.tallies().getFirst().remaining()).isEqualTo(100);
    }
}
