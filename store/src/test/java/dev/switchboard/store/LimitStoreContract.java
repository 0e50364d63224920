package dev.switchboard.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.engine.limits.LimitHold;
import dev.switchboard.engine.limits.Limit;
import dev.switchboard.engine.limits.LimitCheck;
import dev.switchboard.engine.limits.LimitKind;
import dev.switchboard.engine.limits.LimitStore;
import dev.switchboard.engine.limits.Tally;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What every {@link LimitStore} does, whatever holds its counters: the counting rules of {@link LimitKind}, and
 * that concurrent checks never grant more than a ceiling. A store's test supplies a store with empty counters
 * (counter names are unique per test) and a way to move its time forward.
 */
public abstract class LimitStoreContract {
    /** A time well inside a UTC day (10:00), so that day boundaries are where the tests put them. */
    protected static final Instant START = Instant.parse("2026-03-02T10:00:00Z");

    protected abstract LimitStore store();

    protected abstract void advance(Duration d);

    protected abstract Instant now();

    /** How far the store's time may be from {@link #now()} (a store timed by another clock cannot be read exactly). */
    protected Duration tolerance() {
        return Duration.ZERO;
    }

    private void assertAbout(Duration actual, Duration expected) {
        assertThat(actual).isBetween(expected.minus(tolerance()), expected.plus(tolerance()));
    }

    private void assertAbout(Instant actual, Instant expected) {
        assertThat(actual).isBetween(expected.minus(tolerance()), expected.plus(tolerance()));
    }

    @Test
    void concurrentChecksNeverGrantMoreThanTheCeiling() throws Exception {
        LimitStore store = store();
        Limit rpm = new Limit(LimitKind.REQUESTS_PER_MINUTE, "key:c:rpm", 10, Limit.KEY);
        java.util.concurrent.atomic.AtomicInteger granted = new java.util.concurrent.atomic.AtomicInteger();
        try (java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            List<java.util.concurrent.Future<?>> all = new java.util.ArrayList<>();
            for (int i = 0; i < 40; i++) {
                String id = "req_" + i;
                all.add(pool.submit(() -> {
                    if (store.reserve(id, List.of(rpm), 0).granted()) {
                        granted.incrementAndGet();
                    }
                }));
            }
            for (java.util.concurrent.Future<?> f : all) {
                f.get();
            }
        }
        assertThat(granted).hasValue(10);
    }

    private static Limit rpm(long n) {
        return new Limit(LimitKind.REQUESTS_PER_MINUTE, "key:k:rpm", n, Limit.KEY);
    }

    @Test
    void theRequestWindowSlidesInsteadOfResettingAtTheMinute() {
        LimitStore store = store();
        Limit rpm = rpm(3);
        assertThat(store.reserve("r1", List.of(rpm), 0).granted()).isTrue();
        advance(Duration.ofSeconds(40));
        assertThat(store.reserve("r2", List.of(rpm), 0).granted()).isTrue();
        assertThat(store.reserve("r3", List.of(rpm), 0).granted()).isTrue();

        LimitCheck refused = store.reserve("r4", List.of(rpm), 0);
        assertThat(refused.granted()).isFalse();
        Tally t = refused.tallies().getFirst();
        assertThat(t.remaining()).isZero();
        // the oldest request leaves the window 60 s after it was admitted: 20 s from now
        assertAbout(Duration.between(now(), t.refusedUntil().orElseThrow()), Duration.ofSeconds(20));

        advance(Duration.ofSeconds(20));
        assertThat(store.reserve("r5", List.of(rpm), 0).granted()).isTrue();
        // a fixed minute bucket would now allow three more; the sliding window allows none until r2 and r3 leave
        assertThat(store.reserve("r6", List.of(rpm), 0).granted()).isFalse();
        advance(Duration.ofSeconds(39).minus(tolerance()));
        assertThat(store.reserve("r7", List.of(rpm), 0).granted()).isFalse();
        advance(Duration.ofSeconds(1).plus(tolerance()));
        assertThat(store.reserve("r8", List.of(rpm), 0).granted()).isTrue();
    }

    @Test
    void aGrantTellsWhatIsLeftAndWhenTheWindowIsWhole() {
        LimitStore store = store();
        LimitCheck first = store.reserve("r1", List.of(rpm(5)), 0);

        Tally t = first.tallies().getFirst();
        assertThat(t.remaining()).isEqualTo(4);
        assertThat(t.refusedUntil()).isEmpty();
        assertAbout(Duration.between(now(), t.resetAt()), Duration.ofMinutes(1));
        assertThat(first.hold().orElseThrow().requestId()).isEqualTo("r1");
    }

    @Test
    void aRefusalReservesNothingInAnyLimit() {
        LimitStore store = store();
        Limit rpm = rpm(10);
        Limit day = new Limit(LimitKind.TOKENS_PER_DAY, "key:k:day", 100, Limit.KEY);
        assertThat(store.reserve("r1", List.of(rpm, day), 80).granted()).isTrue();

        LimitCheck refused = store.reserve("r2", List.of(rpm, day), 30);

        assertThat(refused.granted()).isFalse();
        assertThat(refused.tallies().get(0).refuses()).isFalse();
        assertThat(refused.tallies().get(1).refuses()).isTrue();
        // r2 took no request slot: nine remain after r3
        LimitCheck next = store.reserve("r3", List.of(rpm, day), 20);
        assertThat(next.granted()).isTrue();
        assertThat(next.tallies().get(0).remaining()).isEqualTo(8);
        assertThat(next.tallies().get(1).remaining()).isZero();
    }

    @Test
    void settlementCorrectsTokensToTheActualCount() {
        LimitStore store = store();
        Limit day = new Limit(LimitKind.TOKENS_PER_DAY, "key:k:day", 1000, Limit.KEY);
        Limit tpm = new Limit(LimitKind.TOKENS_PER_MINUTE, "key:k:tpm", 1000, Limit.KEY);
        LimitHold hold = store.reserve("r1", List.of(tpm, day), 900).hold().orElseThrow();
        assertThat(store.reserve("r2", List.of(tpm, day), 200).granted()).isFalse();

        store.settle(hold, 120);

        LimitCheck after = store.reserve("r3", List.of(tpm, day), 200);
        assertThat(after.granted()).isTrue();
        assertThat(after.tallies()).extracting(Tally::remaining).containsExactly(680L, 680L);
    }

    @Test
    void aFailedRequestGivesItsTokensBackButKeepsItsRequestSlot() {
        LimitStore store = store();
        Limit rpm = rpm(2);
        Limit day = new Limit(LimitKind.TOKENS_PER_DAY, "key:k:day", 100, Limit.KEY);
        LimitHold hold = store.reserve("r1", List.of(rpm, day), 100).hold().orElseThrow();

        store.settle(hold, 0);

        LimitCheck next = store.reserve("r2", List.of(rpm, day), 100);
        assertThat(next.granted()).isTrue();
        assertThat(next.tallies().get(0).remaining()).isZero();
    }

    @Test
    void aReleasedRequestLeavesNoTrace() {
        LimitStore store = store();
        Limit rpm = rpm(1);
        Limit tpm = new Limit(LimitKind.TOKENS_PER_MINUTE, "key:k:tpm", 100, Limit.KEY);
        Limit day = new Limit(LimitKind.TOKENS_PER_DAY, "key:k:day", 100, Limit.KEY);
        Limit parallel = new Limit(LimitKind.PARALLEL_REQUESTS, "key:k:parallel", 1, Limit.KEY);
        LimitHold hold = store.reserve("r1", List.of(rpm, parallel, tpm, day), 100).hold().orElseThrow();

        store.release(hold);

        LimitCheck again = store.reserve("r2", List.of(rpm, parallel, tpm, day), 100);
        assertThat(again.granted()).isTrue();
    }

    @Test
    void tokensPerMinuteHaveRoomAgainWhenEnoughOldTokensLeft() {
        LimitStore store = store();
        Limit tpm = new Limit(LimitKind.TOKENS_PER_MINUTE, "key:k:tpm", 100, Limit.KEY);
        store.reserve("r1", List.of(tpm), 40);
        advance(Duration.ofSeconds(10));
        store.reserve("r2", List.of(tpm), 40);
        advance(Duration.ofSeconds(10));

        LimitCheck refused = store.reserve("r3", List.of(tpm), 50);

        assertThat(refused.granted()).isFalse();
        // r1 leaving (at +60 s, 40 s from now) is enough: 40 left in the window + 50 fits under 100
        assertAbout(Duration.between(now(), refused.tallies().getFirst().refusedUntil().orElseThrow()),
                Duration.ofSeconds(40));
        advance(Duration.ofSeconds(40));
        assertThat(store.reserve("r4", List.of(tpm), 50).granted()).isTrue();
    }

    @Test
    void theDailyCapStartsAgainAtUtcMidnight() {
        LimitStore store = store();
        Limit day = new Limit(LimitKind.TOKENS_PER_DAY, "key:k:day", 100, Limit.KEY);
        LimitHold late = store.reserve("r1", List.of(day), 100).hold().orElseThrow();
        LimitCheck refused = store.reserve("r2", List.of(day), 1);
        assertThat(refused.tallies().getFirst().refusedUntil()).contains(Instant.parse("2026-03-03T00:00:00Z"));
        assertThat(refused.tallies().getFirst().resetAt()).isEqualTo(Instant.parse("2026-03-03T00:00:00Z"));

        advance(Duration.ofHours(14));
        assertThat(store.reserve("r3", List.of(day), 100).granted()).isTrue();
        // a request admitted yesterday is corrected in yesterday's count, not today's
        store.settle(late, 10);
        assertThat(store.reserve("r4", List.of(day), 1).granted()).isFalse();
    }

    @Test
    void parallelRequestsCountUntilSettled() {
        LimitStore store = store();
        Limit parallel = new Limit(LimitKind.PARALLEL_REQUESTS, "key:k:parallel", 2, Limit.KEY);
        LimitHold a = store.reserve("r1", List.of(parallel), 0).hold().orElseThrow();
        store.reserve("r2", List.of(parallel), 0);
        LimitCheck refused = store.reserve("r3", List.of(parallel), 0);
        assertThat(refused.granted()).isFalse();
        assertThat(refused.tallies().getFirst().refusedUntil()).isPresent();

        store.settle(a, 10);

        assertThat(store.reserve("r4", List.of(parallel), 0).granted()).isTrue();
    }

    @Test
    void countersOfDifferentKeysAreSeparate() {
        LimitStore store = store();
        Limit a = new Limit(LimitKind.REQUESTS_PER_MINUTE, "key:a:rpm", 1, Limit.KEY);
        Limit b = new Limit(LimitKind.REQUESTS_PER_MINUTE, "key:b:rpm", 1, Limit.KEY);
        assertThat(store.reserve("r1", List.of(a), 0).granted()).isTrue();
        assertThat(store.reserve("r2", List.of(b), 0).granted()).isTrue();
        assertThat(store.reserve("r3", List.of(a), 0).granted()).isFalse();
    }
}
