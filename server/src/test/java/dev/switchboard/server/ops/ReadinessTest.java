package dev.switchboard.server.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ReadinessTest {
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final AtomicBoolean draining = new AtomicBoolean();

    private Readiness readiness(Duration timeout, Readiness.Check... checks) {
        return new Readiness(List.of(checks), draining::get, timeout, Duration.ofMillis(500), now::get);
    }

    @Test
    void readyWhenEveryDependencyAnswersAndNamesEachInOrder() {
        Readiness r = readiness(Duration.ofSeconds(1), new Readiness.Check("database", () -> true),
                new Readiness.Check("redis", () -> true));
        Readiness.Report report = r.report();
        assertThat(report.ready()).isTrue();
        assertThat(report.states()).containsExactly(java.util.Map.entry("database", "ok"), java.util.Map.entry("redis", "ok"));
        assertThat(report.notReady()).isEmpty();
    }

    @Test
    void aFailingOrThrowingDependencyIsNamedUnreachable() {
        Readiness r = readiness(Duration.ofSeconds(1), new Readiness.Check("database", () -> true),
                new Readiness.Check("redis", () -> {
                    throw new IllegalStateException("refused");
                }));
        Readiness.Report report = r.report();
        assertThat(report.ready()).isFalse();
        assertThat(report.notReady()).containsExactly("redis");
        assertThat(report.states().get("redis")).isEqualTo(Readiness.UNREACHABLE);
    }

    @Test
    void answersAreReusedWithinThePeriodSoAProbeStormCostsOneCheck() {
        AtomicInteger calls = new AtomicInteger();
        Readiness r = readiness(Duration.ofSeconds(1), new Readiness.Check("database", () -> {
            calls.incrementAndGet();
            return true;
        }));
        for (int i = 0; i < 100; i++) {
            r.report();
        }
        assertThat(calls).hasValue(1);
        now.addAndGet(Duration.ofMillis(499).toNanos());
        r.report();
        assertThat(calls).hasValue(1);
        now.addAndGet(Duration.ofMillis(2).toNanos());
        r.report();
        assertThat(calls).hasValue(2);
    }

    @Test
    void aCheckThatDoesNotAnswerIsUnreachableAfterTheTimeoutAndIsNeverStartedTwice() throws Exception {
        AtomicInteger started = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        // long enough for a loaded machine to start and finish a check that answers at once
        Readiness r = readiness(Duration.ofMillis(500), new Readiness.Check("database", () -> {
            started.incrementAndGet();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return true;
        }));
        assertThat(r.report().states().get("database")).isEqualTo(Readiness.UNREACHABLE);
        for (int i = 0; i < 2; i++) {
            now.addAndGet(Duration.ofSeconds(1).toNanos());
            assertThat(r.report().ready()).isFalse();
        }
        // the hung check is waited on again, never joined by a second one
        assertThat(started).hasValue(1);
        release.countDown();
        // once it finished, each new round checks afresh (an answer from before the hang is not reused)
        now.addAndGet(Duration.ofSeconds(1).toNanos());
        assertThat(r.report().ready()).isTrue();
        now.addAndGet(Duration.ofSeconds(1).toNanos());
        assertThat(r.report().ready()).isTrue();
        assertThat(started.get()).isBetween(2, 3);
    }

    @Test
    void shuttingDownIsReadLiveNotReused() {
        Readiness r = readiness(Duration.ofSeconds(1), new Readiness.Check("database", () -> true));
        assertThat(r.report().ready()).isTrue();
        draining.set(true);
        Readiness.Report report = r.report();
        assertThat(report.ready()).isFalse();
        assertThat(report.notReady()).containsExactly(Readiness.SHUTDOWN);
        assertThat(report.states().get(Readiness.SHUTDOWN)).isEqualTo("shutting down");
    }
}
