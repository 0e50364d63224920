package dev.switchboard.engine.billing;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Releases holds whose request never settled (the gateway that admitted it died) once their deadline has
 * passed: at start and then every {@code every}, on one daemon thread. Any instance may sweep any hold; each
 * release is its own conditional delete, so instances sweeping at once release each hold once.
 */
public final class HoldSweeper implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HoldSweeper.class);
    private static final int BATCH = 500;

    private final BalanceStore store;
    private final Clock clock;
    private final ScheduledExecutorService timer;

    public HoldSweeper(BalanceStore store, Clock clock, Duration every) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.timer = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("hold-sweeper").factory());
        timer.scheduleWithFixedDelay(this::sweepQuietly, 0, every.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Releases every expired hold now; how many. */
    public int sweep() {
        int total = 0;
        int released;
        do {
            released = store.releaseExpired(clock.instant(), BATCH);
            total += released;
        } while (released == BATCH);
        if (total > 0) {
            LOG.atWarn().addKeyValue("released", total).log("released holds of requests that never settled");
        }
        return total;
    }

    private void sweepQuietly() {
        try {
            sweep();
        } catch (RuntimeException e) {
            // the database may be briefly away; the next round tries again
            LOG.atWarn().setCause(e).log("hold sweep failed");
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
