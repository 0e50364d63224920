package dev.switchboard.engine.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The gateway's meters, in one place so names and labels stay consistent. Labels are model ids, provider
 * ids, endpoints and outcomes: never keys, user ids or anything secret. Meters are looked up once per
 * label combination and kept, so recording on the request path is a map hit, not a registry lookup. Every
 * meter has a description: it becomes the HELP line of {@code /metrics}.
 */
public final class GatewayMetrics {
    private final MeterRegistry registry;
    private final AtomicInteger openStreams = new AtomicInteger();
    private final Map<List<String>, Counter> counters = new ConcurrentHashMap<>();
    private final Map<List<String>, Timer> timers = new ConcurrentHashMap<>();

    public GatewayMetrics(MeterRegistry registry) {
        this.registry = registry;
        Gauge.builder("switchboard_open_streams", openStreams, AtomicInteger::get)
                .description("Streamed answers being delivered to clients right now.").register(registry);
    }

    /** Gauges of the upstream connection pool: open connections (kept or carrying a request) and kept ones. */
    public void upstreamPool(java.util.function.IntSupplier open, java.util.function.IntSupplier idle) {
        Gauge.builder("switchboard_upstream_connections_open", open, s -> s.getAsInt())
                .description("Upstream connections open now, kept for reuse or carrying a request.").register(registry);
        Gauge.builder("switchboard_upstream_connections_idle", idle, s -> s.getAsInt())
                .description("Upstream connections kept for reuse now.").register(registry);
    }

    public MeterRegistry registry() {
        return registry;
    }

    private Counter counter(List<String> key, Function<List<String>, Counter> make) {
        return counters.computeIfAbsent(key, make);
    }

    private Timer timer(List<String> key, Function<List<String>, Timer> make) {
        return timers.computeIfAbsent(key, make);
    }

    /** One finished request at the edge. */
    public void request(String endpoint, String model, int status, Duration latency) {
        String s = Integer.toString(status);
        counter(List.of("requests", endpoint, model, s), k -> Counter.builder("switchboard_requests")
                .description("Finished requests by endpoint, model asked (or answered) and HTTP status.")
                .tag("endpoint", endpoint).tag("model", model).tag("status", s).register(registry)).increment();
        timer(List.of("duration", endpoint), k -> Timer.builder("switchboard_request_duration")
                .description("Time from request arrival to the end of the response, by endpoint.")
                .tag("endpoint", endpoint).publishPercentileHistogram().register(registry)).record(latency);
    }

    /** Time from request arrival to the first byte sent to the client. */
    public void timeToFirstByte(String endpoint, Duration ttfb) {
        timer(List.of("ttfb", endpoint), k -> Timer.builder("switchboard_time_to_first_byte")
                .description("Time from request arrival to the first response byte sent to the client, by endpoint.")
                .tag("endpoint", endpoint).publishPercentileHistogram().register(registry)).record(ttfb);
    }

    /** A request refused because the gateway ran out of a local resource (e.g. {@code file_descriptors}). */
    public void localResourceExhausted(String resource) {
        counter(List.of("exhausted", resource), k -> Counter.builder("switchboard_local_resource_exhausted")
                .description("Requests answered 503 because the gateway ran out of a local resource, by resource.")
                .tag("resource", resource).register(registry)).increment();
    }

    /** One upstream attempt. */
    public void attempt(String provider, String outcome, Duration latency) {
        counter(List.of("attempts", provider, outcome), k -> Counter.builder("switchboard_upstream_attempts")
                .description("Upstream attempts by provider and outcome (ok, an HTTP status, timeout, connect...).")
                .tag("provider", provider).tag("outcome", outcome).register(registry)).increment();
        timer(List.of("upstream", provider), k -> Timer.builder("switchboard_upstream_latency")
                .description("Duration of upstream attempts, by provider.")
                .tag("provider", provider).publishPercentileHistogram().register(registry)).record(latency);
    }

    /** An attempt the breaker did not let through (the provider's target is ejected). */
    public void breakerSkip(String provider, String upstreamModel) {
        counter(List.of("breaker_skips", provider, upstreamModel), k -> Counter.builder("switchboard_breaker_skips")
                .description("Attempts not made because the target was ejected after repeated failures.")
                .tag("provider", provider).tag("upstream_model", upstreamModel).register(registry)).increment();
    }

    /** The breaker of a provider's target opened (ejected it) or closed (took it back). */
    public void breakerTransition(String provider, String upstreamModel, String to) {
        counter(List.of("breaker", provider, upstreamModel, to), k -> Counter.builder("switchboard_breaker_transitions")
                .description("Target ejections (to=open) and returns (to=closed), by provider and upstream model.")
                .tag("provider", provider).tag("upstream_model", upstreamModel).tag("to", to).register(registry)).increment();
    }

    public void tokens(String model, long input, long output) {
        tokenCounter(model, "input").increment(input);
        tokenCounter(model, "output").increment(output);
    }

    /** {@code switchboard_tokens} of one answering model and kind (input, output, cache_read, cache_write). */
    private Counter tokenCounter(String model, String kind) {
        return counter(List.of("tokens", model, kind), k -> Counter.builder("switchboard_tokens")
                .description("Tokens billed, by model answered and kind (input, output).")
                .tag("model", model).tag("kind", kind).register(registry));
    }

    /**
     * The cost of a billed request at its answering model's prices, in USD (a metric may be approximate: the
     * bill itself is exact integers in the database). No user label: cost per user is in the usage views.
     */
    public void cost(String model, long nanos) {
        counter(List.of("cost", model), k -> Counter.builder("switchboard_cost_usd")
                .description("Cost of billed requests at list prices, in USD, by model answered.")
                .tag("model", model).register(registry)).increment(nanos / 1e9);
    }

    /** Cache tokens of billed requests, by model answered and kind (cache_read, cache_write). */
    public void cacheTokens(String model, long read, long written) {
        tokenCounter(model, "cache_read").increment(read);
        tokenCounter(model, "cache_write").increment(written);
    }

    /** A request refused by a limit; {@code limit} is the kind's label ({@code rpm}, {@code tpm}...), never whose. */
    public void limitRefusal(String limit) {
        counter(List.of("limit_refusals", limit), k -> Counter.builder("switchboard_limit_refusals")
                .description("Requests refused (429) by a rate limit, token cap or parallel limit, by limit.")
                .tag("limit", limit).register(registry)).increment();
    }

    /**
     * One operation the limit store could not do (Redis unreachable or too slow); {@code policy} says what the
     * gateway did instead ({@code allow}: served unmetered; {@code deny}: refused).
     */
    public void limitStoreFailure(String policy) {
        counter(List.of("limit_store_failures", policy), k -> Counter.builder("switchboard_limit_store_failures")
                .description("Limit store operations that failed (Redis unreachable or too slow), by the policy applied.")
                .tag("policy", policy).register(registry)).increment();
    }

    public void streamOpened() {
        openStreams.incrementAndGet();
    }

    public void streamClosed() {
        openStreams.decrementAndGet();
    }

    /**
     * The providers' health from this instance's own counters since it started: attempts by outcome, and the
     * latency of attempts (mean and max, in milliseconds). Providers appear once they were tried.
     */
    public List<ProviderHealth> providerHealth() {
        Map<String, Map<String, Long>> outcomes = new java.util.TreeMap<>();
        counters.forEach((key, counter) -> {
            if (key.getFirst().equals("attempts")) {
                outcomes.computeIfAbsent(key.get(1), p -> new java.util.TreeMap<>())
                        .merge(key.get(2), (long) counter.count(), Long::sum);
            }
        });
        List<ProviderHealth> out = new java.util.ArrayList<>();
        outcomes.forEach((provider, byOutcome) -> {
            Timer t = timers.get(List.of("upstream", provider));
            double mean = t == null ? 0 : t.mean(java.util.concurrent.TimeUnit.MILLISECONDS);
            double max = t == null ? 0 : t.max(java.util.concurrent.TimeUnit.MILLISECONDS);
            out.add(new ProviderHealth(provider, byOutcome, Math.round(mean), Math.round(max)));
        });
        return out;
    }

    /**
     * One provider's attempts since start, by outcome ({@code ok}, an HTTP status, {@code timeout}, ...), with the
     * mean and the largest attempt duration in milliseconds (the largest over the registry's recent window).
     */
    public record ProviderHealth(String provider, Map<String, Long> outcomes, long meanLatencyMs, long maxLatencyMs) {
        public ProviderHealth {
            outcomes = Map.copyOf(outcomes);
        }

        public long attempts() {
            return outcomes.values().stream().mapToLong(Long::longValue).sum();
        }

        public long errors() {
            return attempts() - outcomes.getOrDefault("ok", 0L);
        }
    }
}
