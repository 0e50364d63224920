package dev.switchboard.testkit.it.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.testkit.GatewayExtension;
import dev.switchboard.testkit.TestGateway;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The generated bad-input corpus ({@link CorpusGenerator}): per chat format, every field of its seed requests given
 * every wrong JSON type and removed, the structural attacks (truncation, 10,000-deep nesting, duplicate keys, invalid
 * UTF-8, 10,000 messages, limit + 1 bytes), then seeded mutations. Judged like {@link BadInputFuzzIT} (no 5xx, the
 * format's envelope, no internal name, a 400 about a well-formed body names a field), and a wrong-typed field's 400
 * names that field. The rejection latency (p50, p99) and the process's resident memory before and after are printed,
 * not asserted (timing is the load script's to judge).
 *
 * <p>{@value #DEFAULT_CASES} cases per format in the build; the full corpus with {@code -Dswitchboard.corpus.cases=5000}.
 */
class BadInputCorpusIT {
    static final int DEFAULT_CASES = 800;
    private static final int CASES = Integer.getInteger("switchboard.corpus.cases", DEFAULT_CASES);
    private static final long SEED = Long.getLong("switchboard.corpus.seed", 20261124L);
    private static final long MAX_BODY = 2L * 1024 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final GatewayExtension GATEWAY = new GatewayExtension(FuzzGateway.config("sk-upstream-corpus-0123456789"));

    private static TestGateway gateway;
    private static HttpClient http;

    @BeforeAll
    static void connect() {
        gateway = GATEWAY.gateway();
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    }

    private record Timed(BadInputFuzzIT.Outcome outcome, long nanos) {
    }

    @ParameterizedTest
    @EnumSource(BadInputFuzzIT.Format.class)
    void everyCaseIsRefusedInTheFormatsEnvelopeNamingTheField(BadInputFuzzIT.Format format) throws Exception {
        List<JsonNode> seeds = new ArrayList<>();
        for (String s : format.seeds()) {
            seeds.add(JSON.readTree(s));
        }
        List<RequestMutator.Case> cases = CorpusGenerator.corpus(seeds, CASES, MAX_BODY, SEED + format.ordinal());
        long rssBefore = rssKb();
        long heapBefore = heapAfterGcMb();
        int upstreamBefore = gateway.upstream().received().size();
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Long> rejections = new ConcurrentLinkedQueue<>();
        Map<Integer, AtomicInteger> statuses = new ConcurrentSkipListMap<>();
        AtomicInteger unnamed = new AtomicInteger();
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            List<Future<?>> running = new ArrayList<>();
            for (RequestMutator.Case c : cases) {
                running.add(pool.submit(() -> {
                    Timed t = send(format, c);
                    BadInputFuzzIT.Outcome o = t.outcome();
                    statuses.computeIfAbsent(o.status(), k -> new AtomicInteger()).incrementAndGet();
                    if (o.status() >= 400 && o.status() < 500) {
                        rejections.add(t.nanos());
                    }
                    BadInputFuzzIT.judge(format, o).or(() -> namesTheField(c, o)).ifPresent(p -> problems.add(
                            p + "\n    case: " + c.description() + "\n    answer: " + o.status() + " " + shorten(o.body())));
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get();
            }
        }
        long rssAfter = rssKb();
        long heapAfter = heapAfterGcMb();
        List<Long> sorted = rejections.stream().sorted().toList();
        System.out.printf("%s: %d cases (%d from the grammar, seed %d), answers by status %s; rejections p50 %d ms, p99 %d ms; "
                        + "RSS %d -> %d MB, heap after GC %d -> %d MB; upstream calls %d%n", format, cases.size(), CorpusGenerator.grammarSize(seeds, MAX_BODY),
                SEED, statuses, percentile(sorted, 50), percentile(sorted, 99), rssBefore / 1024, rssAfter / 1024,
                heapBefore, heapAfter, gateway.upstream().received().size() - upstreamBefore);
        Map<String, String> kinds = new LinkedHashMap<>();
        problems.forEach(p -> kinds.putIfAbsent(p.substring(0, Math.min(60, p.indexOf('\n') < 0 ? p.length() : p.indexOf('\n'))), p));
        assertThat(kinds.values()).as("%d of %d %s cases, one of each kind", problems.size(), cases.size(), format).isEmpty();
        assertThat(statuses.keySet()).as("no 5xx").allMatch(s -> s < 500);
    }

    /** A 400 about a field given the wrong type names that field (its last name) in {@code param}. */
    private static java.util.Optional<String> namesTheField(RequestMutator.Case c, BadInputFuzzIT.Outcome o) {
        String field = CorpusGenerator.fieldOf(c.description());
        if (o.status() != 400 || field.isEmpty() || !c.description().contains(" as ")) {
            return java.util.Optional.empty();
        }
        String param;
        try {
            param = JSON.readTree(o.body()).path("error").path("param").asText("");
        } catch (IOException e) {
            return java.util.Optional.of("an error body that is not JSON");
        }
        // the field or one of its parents: a value's type can make its container the thing that is wrong
        String[] names = field.replaceAll("\\[\\d+\\]", "").split("\\.");
        for (String n : names) {
            if (!n.isEmpty() && param.contains(n)) {
                return java.util.Optional.empty();
            }
        }
        return java.util.Optional.of("param '" + param + "' names none of " + String.join(", ", names));
    }

    private static Timed send(BadInputFuzzIT.Format format, RequestMutator.Case c) {
        HttpRequest r = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + format.path)).timeout(Duration.ofSeconds(60))
                .header("content-type", "application/json").header("authorization", "Bearer " + gateway.apiKey())
                .header("anthropic-version", "2023-06-01").POST(HttpRequest.BodyPublishers.ofByteArray(c.body())).build();
        long start = System.nanoTime();
        try {
            HttpResponse<String> answer = http.send(r, HttpResponse.BodyHandlers.ofString());
            return new Timed(new BadInputFuzzIT.Outcome(c, answer.statusCode(), answer.body()), System.nanoTime() - start);
        } catch (IOException e) {
            return new Timed(new BadInputFuzzIT.Outcome(c, 599, "no answer: " + e), System.nanoTime() - start);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static long percentile(List<Long> sorted, int p) {
        if (sorted.isEmpty()) {
            return -1;
        }
        return Duration.ofNanos(sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * p / 100.0) - 1))).toMillis();
    }

    /** This process's resident set (the gateway runs in it), in KB; -1 where /proc is missing. */
    private static long rssKb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** Heap in use after a full collection (the gateway runs in this process), in MB. */
    private static long heapAfterGcMb() {
        System.gc();
        return java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / (1024 * 1024);
    }

    private static String shorten(String s) {
        return s.length() > 400 ? s.substring(0, 400) + "..." : s;
    }
}
