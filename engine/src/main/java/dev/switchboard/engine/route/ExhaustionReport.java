package dev.switchboard.engine.route;

import dev.switchboard.engine.metrics.GatewayMetrics;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the operator that the gateway ran out of file descriptors: every refused request counts in
 * {@code switchboard_local_resource_exhausted_total}, and one warning line goes to the log per minute at
 * most (with how many requests were refused since the last one), so an exhausted gateway does not also
 * flood its log. Nothing is kept in a bad state: the next request that finds a descriptor free succeeds.
 */
final class ExhaustionReport {
    private static final Logger LOG = LoggerFactory.getLogger(ExhaustionReport.class);
    private static final long EVERY_NANOS = Duration.ofMinutes(1).toNanos();

    private final GatewayMetrics metrics;
    private final LongSupplier nanoClock;
    private final AtomicLong lastLogNanos;
    private final AtomicLong unreported = new AtomicLong();

    ExhaustionReport(GatewayMetrics metrics) {
        this(metrics, System::nanoTime);
    }

    ExhaustionReport(GatewayMetrics metrics, LongSupplier nanoClock) {
        this.metrics = metrics;
        this.nanoClock = nanoClock;
        this.lastLogNanos = new AtomicLong(nanoClock.getAsLong() - EVERY_NANOS);
    }

    void report() {
        metrics.localResourceExhausted("file_descriptors");
        long refused = unreported.incrementAndGet();
        long now = nanoClock.getAsLong();
        long last = lastLogNanos.get();
        if (now - last >= EVERY_NANOS && lastLogNanos.compareAndSet(last, now)) {
            unreported.addAndGet(-refused);
            LOG.atWarn().addKeyValue("refused", refused)
                    .log("out of file descriptors: {} request(s) answered 503 since the last report; raise the limit "
                            + "(ulimit -n) or lower the load", refused);
        }
    }
}
