package dev.switchboard.testkit.soak;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one-screen result of a soak: requests per outcome, attempts per request, upstream calls against their bound,
 * breaker figures, latency, resources against the baseline, the secret scan, and every violation with its request.
 */
public record SoakReport(String text, List<String> violations) {

    public String render() {
        return text;
    }

    /** Collects a run's figures; thread-safe where the run is concurrent. */
    static final class Builder {
        private static final Pattern METRIC = Pattern.compile("^(switchboard_breaker_\\w+)\\{([^}]*)\\} ([0-9.E+-]+)$",
                Pattern.MULTILINE);
        private final SoakSettings settings;
        private final long startNanos = System.nanoTime();
        private final List<long[]> kills = new CopyOnWriteArrayList<>();
        private final Map<String, Integer> outcomes = new ConcurrentHashMap<>();
        private final Map<Integer, Integer> attemptsPerRequest = new TreeMap<>();
        private final List<Long> latencies = new ArrayList<>();
        private final List<String> violations = new CopyOnWriteArrayList<>();
        private long calls;
        private long bound;
        private String breaker = "none";
        private Optional<GatewayProcess.Resources> baseline = Optional.empty();
        private Optional<GatewayProcess.Resources> last = Optional.empty();
        private String secrets = "not scanned";
        private String money = "not reconciled";

        Builder(SoakSettings settings) {
            this.settings = settings;
        }

        void kill(long from, long ready) {
            kills.add(new long[] {from, ready});
        }

        /** When the last kill happened ({@code System.nanoTime()}); the run's start when there was none. */
        long lastKillNanos() {
            return kills.stream().mapToLong(k -> k[0]).max().orElse(startNanos);
        }

        /** Whether a kill began within {@code within} after {@code endNanos} (the gateway may not have finished by then). */
        boolean killSoonAfter(long endNanos, Duration within) {
            return kills.stream().anyMatch(k -> k[0] >= endNanos && k[0] - endNanos <= within.toNanos());
        }

        boolean overlapsKill(long start, long end) {
            return kills.stream().anyMatch(k -> start <= k[1] && end >= k[0]);
        }

        synchronized void outcome(Observation o, List<UpstreamAttempt> attempts, boolean killed) {
            String key = killed && o.kind() != Observation.Kind.ANSWERED ? "cut by a kill"
                    : switch (o.kind()) {
                        case ANSWERED -> o.inBandError() ? "200, in-band error" : "200, complete";
                        case REFUSED -> "error " + o.status();
                        case ABORTED -> "client left mid-stream";
                        case BROKEN -> "broken";
                    };
            outcomes.merge(key, 1, Integer::sum);
            attemptsPerRequest.merge(attempts.size(), 1, Integer::sum);
            if (o.kind() == Observation.Kind.ANSWERED) {
                latencies.add(o.endNanos() - o.startNanos());
            }
        }

        void violation(long request, String what) {
            violations.add((request >= 0 ? "[request " + request + "] " : "") + what);
        }

        synchronized void upstreamCalls(long calls, long bound) {
            this.calls = calls;
            this.bound = bound;
        }

        synchronized void metrics(String prometheus) {
            Map<String, Double> sums = new TreeMap<>();
            Matcher m = METRIC.matcher(prometheus);
            while (m.find()) {
                String name = m.group(1).replace("_total", "");
                String to = m.group(2).contains("to=\"open\"") ? " open" : m.group(2).contains("to=\"closed\"") ? " closed" : "";
                sums.merge(name.replace("switchboard_breaker_", "") + to, Double.parseDouble(m.group(3)), Double::sum);
            }
            breaker = sums.isEmpty() ? "no ejection" : sums.toString().replace(".0", "");
        }

        private Map<String, Integer> ports = Map.of();

        synchronized void providerPorts(Map<String, Integer> ports) {
            this.ports = Map.copyOf(ports);
        }

        synchronized void baseline(GatewayProcess.Resources r) {
            baseline = Optional.of(r);
        }

        synchronized void finalResources(GatewayProcess.Resources r) {
            last = Optional.of(r);
            baseline.ifPresent(b -> {
                // 10% of the baseline, with a floor for counts too small for a percentage to mean anything
                // a JVM's heap after a full GC moves by a few MB on its own (allocation buffers, lazily made meters)
                if (r.heapKb() > b.heapKb() + Math.max(b.heapKb() / 10, 8192)) {
                    violation(-1, "heap after GC grew from " + b.heapKb() + " KB to " + r.heapKb() + " KB");
                }
                if (r.threads() > b.threads() + Math.max(b.threads() / 10, 2)) {
                    violation(-1, "threads grew from " + b.threads() + " to " + r.threads());
                }
                // Idle keep-alive connections to the providers are a pool that follows the traffic mix (a provider
                // ejected in one part of the run gets none): they are judged on their bound, not their count; every
                // other descriptor must come back to within 10% of the baseline, and none may wait unclosed.
                long pooledBefore = pooled(b);
                long pooledAfter = pooled(r);
                if (r.fds() - pooledAfter > b.fds() - pooledBefore + Math.max((b.fds() - pooledBefore) / 10, 2)) {
                    violation(-1, "open file descriptors other than pooled provider connections grew from "
                            + (b.fds() - pooledBefore) + " to " + (r.fds() - pooledAfter));
                }
                ports.forEach((provider, port) -> {
                    int n = r.sockets().getOrDefault(Integer.toString(port), 0);
                    if (n > settings.concurrency()) {
                        violation(-1, n + " connections to " + provider + " stay open, more than the " + settings.concurrency()
                                + " requests ever in flight");
                    }
                });
                r.sockets().forEach((peer, n) -> {
                    if (peer.contains("close-wait")) {
                        violation(-1, n + " sockets (" + peer + ") were closed by their peer and never by the gateway");
                    }
                });
            });
        }

        synchronized void money(String summary) {
            money = summary;
        }

        synchronized void secrets(int count, int dumpChars, int logChars) {
            secrets = count + " secrets searched in a " + dumpChars / 1024 + " KB database dump and a " + logChars / 1024
                    + " KB log";
        }

        private long pooled(GatewayProcess.Resources r) {
            return ports.values().stream().mapToLong(p -> r.sockets().getOrDefault(Integer.toString(p), 0)).sum();
        }

        SoakReport build() {
            List<Long> sorted = latencies.stream().sorted().toList();
            String p50 = percentile(sorted, 50);
            String p99 = percentile(sorted, 99);
            StringBuilder t = new StringBuilder();
            t.append("== Switchboard fault soak ==\n");
            t.append(String.format("%d requests, 4 formats, %d%% streamed, %d%% clients leave mid-stream, %d concurrent, seed %d%n",
                    settings.requests(), settings.streamedPercent(), settings.abortPercent(), settings.concurrency(),
                    settings.seed()));
            t.append(String.format("database %s, %d kill -9 + restart, %d s%n",
                    settings.database().startsWith("postgresql") ? "postgresql" : "sqlite", kills.size(),
                    Duration.ofNanos(System.nanoTime() - startNanos).toSeconds()));
            t.append("outcomes:   ").append(new TreeMap<>(outcomes)).append('\n');
            t.append("attempts per request: ").append(attemptsPerRequest).append('\n');
            t.append(String.format("upstream calls: %d (bound: requests x targets = %d)%n", calls, bound));
            t.append("breaker:    ").append(breaker).append(" (final process)\n");
            t.append("latency of answered requests: p50 ").append(p50).append(", p99 ").append(p99).append('\n');
            t.append("providers:  ").append(ports).append(" (ports, for the socket counts)\n");
            t.append("resources:  baseline ").append(baseline.map(Object::toString).orElse("not taken"))
                    .append(" -> final ").append(last.map(Object::toString).orElse("not taken")).append('\n');
            t.append("money:      ").append(money).append('\n');
            t.append("secrets:    ").append(secrets).append('\n');
            t.append("violations: ").append(violations.size()).append('\n');
            violations.stream().limit(25).forEach(v -> t.append("  ").append(v).append('\n'));
            if (violations.size() > 25) {
                t.append("  ... and ").append(violations.size() - 25).append(" more\n");
            }
            return new SoakReport(t.toString(), List.copyOf(violations));
        }

        private static String percentile(List<Long> sorted, int p) {
            if (sorted.isEmpty()) {
                return "-";
            }
            long nanos = sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * p / 100.0) - 1));
            return Duration.ofNanos(nanos).toMillis() + " ms";
        }
    }
}
