package dev.switchboard.engine.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The gateway's meters, in one place so names and labels stay consistent. Labels are model ids, provider
 * ids, endpoints and outcomes: never keys, user ids or anything secret.
 */
public final class GatewayMetrics {
    private final MeterRegistry registry;
    private final AtomicInteger openStreams = new AtomicInteger();

    public GatewayMetrics(MeterRegistry registry) {
        this.registry = registry;
        registry.gauge("switchboard_open_streams", openStreams);
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** One finished request at the edge. */
    public void request(String endpoint, String model, int status, Duration latency) {
        Counter.builder("switchboard_requests").tag("endpoint", endpoint).tag("model", model)
                .tag("status", Integer.toString(status)).register(registry).increment();
        Timer.builder("switchboard_request_duration").tag("endpoint", endpoint).publishPercentileHistogram()
                .register(registry).record(latency);
    }

    /** Time from request arrival to the first byte sent to the client. */
    public void timeToFirstByte(String endpoint, Duration ttfb) {
        Timer.builder("switchboard_time_to_first_byte").tag("endpoint", endpoint).publishPercentileHistogram()
                .register(registry).record(ttfb);
    }

    /** One upstream attempt. */
    public void attempt(String provider, String outcome, Duration latency) {
        Counter.builder("switchboard_upstream_attempts").tag("provider", provider).tag("outcome", outcome)
                .register(registry).increment();
        Timer.builder("switchboard_upstream_latency").tag("provider", provider).publishPercentileHistogram()
                .register(registry).record(latency);
    }

    public void tokens(String model, long input, long output) {
        Counter.builder("switchboard_tokens").tag("model", model).tag("kind", "input").register(registry).increment(input);
        Counter.builder("switchboard_tokens").tag("model", model).tag("kind", "output").register(registry).increment(output);
    }

    public void streamOpened() {
        openStreams.incrementAndGet();
    }

    public void streamClosed() {
        openStreams.decrementAndGet();
    }
}
