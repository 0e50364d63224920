package dev.switchboard.testkit.it;

import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.openAiProvider;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;
import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.engine.upstream.UpstreamPool;
import dev.switchboard.testkit.TestGateway;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Upstream connections under faults (docs/contracts.md §1): a kept connection the provider closed is
 * replaced by a fresh one without costing an attempt, and a provider that resets connections before the
 * status line leaves no socket of the gateway half-closed and no descriptor behind, without any help
 * from the garbage collector. Sockets are counted the way an operator would: {@code ss} and
 * {@code /proc/self/fd} (the gateway runs in this JVM; everything is on loopback).
 */
class UpstreamConnectionsIT {
    private static final String CONFIG = TestGateway.DEFAULT_HEADER
            + providers(openAiProvider("fake", ItSupport.UPSTREAM_KEY))
            + models(
                    model("plain").route("fake/up-plain"),
                    model("failing").route("fake/up-warm-fail500"),
                    model("first-resets").route("fake/up-first-reset", "fake/up-second"));

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private TestGateway gateway;

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
        http.close();
    }

    private void start() {
        gateway = TestGateway.start(CONFIG);
        gateway.upstream().requireKey("sk-upstream-main-0123456789");
    }

    @Test
    void aKeptConnectionTheProviderClosedWhileIdleIsReplacedWithoutAnAttempt() throws Exception {
        start();
        gateway.upstream().closeIdleConnectionsAfter(Duration.ofMillis(100));

        assertThat(ask("plain", false).statusCode()).isEqualTo(200);
        Thread.sleep(400); // the fake has closed the kept connection by now
        HttpResponse<String> second = ask("plain", true);

        assertStreamedWhole(second);
        assertEveryAttemptOk(2);
    }

    @Test
    void finishedStreamsGiveTheirConnectionBackForTheNextRequest() throws Exception {
        start();

        for (int i = 0; i < 5; i++) {
            assertStreamedWhole(ask("plain", true));
        }

        // one after another, every stream ran on the connection the one before it gave back
        assertThat(gateway.app().upstream().pool().openConnections()).isEqualTo(1);
        assertThat(gateway.app().upstream().pool().idleConnections()).isEqualTo(1);
    }

    @Test
    void aKeptConnectionClosedAsTheRequestWentOutIsRetriedOnAFreshOneWithoutAnAttempt() throws Exception {
        start();
        gateway.upstream().dropRequestsOnReusedConnections(true);

        assertThat(ask("plain", false).statusCode()).isEqualTo(200);
        HttpResponse<String> plain = ask("plain", false);
        HttpResponse<String> streamed = ask("plain", true);

        assertThat(plain.statusCode()).isEqualTo(200);
        assertThat(plain.body()).contains("\"choices\"");
        assertStreamedWhole(streamed);
        // every request after the first met a closed kept connection, and none of them counted as a failure
        assertEveryAttemptOk(3);
    }

    @Test
    void resetsBeforeTheStatusLineLeaveNoHalfClosedSocketAndNoDescriptorBehind() throws Exception {
        start();
        int port = gateway.upstream().port();
        assertThat(ask("first-resets", false).statusCode()).isEqualTo(200);
        // sockets only: billing's database pool and background writers open and close SQLite files on their
        // own schedule (three descriptors a connection), which says nothing about upstream connections
        long fdsBefore = socketDescriptors();
        long gcBefore = collections();

        for (int i = 0; i < 300; i++) {
            HttpResponse<String> r = ask("first-resets", i % 2 == 0);
            assertThat(r.statusCode()).as("request %d", i).isEqualTo(200);
        }

        assertThat(gatewaySockets(port, "close-wait")).as("gateway sockets in CLOSE-WAIT").isZero();
        int bound = UpstreamPool.Settings.DEFAULTS.maxIdle();
        assertThat(gatewaySockets(port, "established")).isLessThanOrEqualTo(bound)
                .isEqualTo(gateway.app().upstream().pool().openConnections());
        assertThat(socketDescriptors()).as("socket descriptors after 300 resets (before: %d)", fdsBefore).isLessThanOrEqualTo(fdsBefore);
        // Reported, not asserted: a young collection may run, but nothing above needed one.
        System.out.printf("UpstreamConnectionsIT: descriptors %d -> %d, collections during the run: %d%n",
                fdsBefore, socketDescriptors(), collections() - gcBefore);
    }

    @Test
    void outOfDescriptorsIsA503ThatSaysSoCountedAndTheGatewayRecovers() throws Exception {
        start();
        assertThat(ask("plain", false).statusCode()).isEqualTo(200);
        // the failure path (a failed attempt, its log line, the error answer) runs once before descriptors run out
        assertThat(ask("failing", false).statusCode()).isEqualTo(503);
        Class.forName("dev.switchboard.engine.route.ExhaustionReport");
        gateway.app().upstream().pool().closeIdle(); // the next request needs a new upstream connection
        long pid = ProcessHandle.current().pid();
        String limits = run("prlimit", "--pid", Long.toString(pid), "--nofile", "--raw", "--noheadings", "-o", "SOFT,HARD").strip();
        String[] softHard = limits.split("\\s+");
        // Started now, while descriptors are free: once they are all taken this process could not start another.
        Process restorer = new ProcessBuilder("sh", "-c", "read go; exec prlimit --pid " + pid + " --nofile="
                + softHard[0] + ":" + softHard[1]).redirectErrorStream(true).start();
        List<java.nio.channels.FileChannel> fillers = new ArrayList<>();
        HttpResponse<String> refused;
        try {
            run("prlimit", "--pid", Long.toString(pid), "--nofile=" + (highestDescriptor() + 1) + ":" + softHard[1]);
            // Twice: sockets closed a moment ago (the fake's side of the connection dropped above) free
            // their descriptors a little later.
            fill(fillers);
            Thread.sleep(500);
            fill(fillers);
            refused = ask("plain", false);
        } finally {
            for (java.nio.channels.FileChannel f : fillers) {
                f.close();
            }
            restorer.getOutputStream().write("go\n".getBytes(StandardCharsets.UTF_8));
            restorer.getOutputStream().flush();
            assertThat(restorer.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(restorer.exitValue()).as("prlimit restore: %s",
                    new String(restorer.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();
        }

        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.body()).contains("out of file descriptors");
        assertThat(ask("plain", false).statusCode()).as("recovered once descriptors are free").isEqualTo(200);
        assertThat(metric("switchboard_local_resource_exhausted_total{resource=\"file_descriptors\"}")).isEqualTo(1.0);
    }

    /** Opens /dev/null until no descriptor below the limit is left. */
    private static void fill(List<java.nio.channels.FileChannel> fillers) {
        try {
            while (fillers.size() < 100_000) {
                fillers.add(java.nio.channels.FileChannel.open(java.nio.file.Path.of("/dev/null")));
            }
        } catch (IOException full) {
            // every descriptor below the limit is taken now
        }
    }

    private static long highestDescriptor() {
        String[] fds = new File("/proc/self/fd").list();
        long max = 0;
        for (String fd : fds) {
            max = Math.max(max, Long.parseLong(fd));
        }
        return max;
    }

    private static String run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("%s: %s", String.join(" ", command), out).isZero();
        return out;
    }

    private double metric(String series) throws IOException, InterruptedException {
        String text = http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/metrics")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        return text.lines().filter(l -> l.startsWith(series + " ")).mapToDouble(l -> Double.parseDouble(l.substring(series.length() + 1)))
                .findFirst().orElse(0);
    }

    private HttpResponse<String> ask(String model, boolean stream) throws IOException, InterruptedException {
        String body = "{\"model\":\"" + model + "\",\"stream\":" + stream
                + ",\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}";
        HttpRequest request = HttpRequest.newBuilder(URI.create(gateway.openAiBaseUrl() + "/chat/completions"))
                .timeout(Duration.ofSeconds(15))
                .header("authorization", "Bearer " + gateway.apiKey())
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /** A streamed answer that ran to its end without an in-band error. */
    private static void assertStreamedWhole(HttpResponse<String> streamed) {
        assertThat(streamed.statusCode()).isEqualTo(200);
        assertThat(streamed.body()).contains("data: [DONE]").doesNotContain("\"error\"");
    }

    /** The fake provider received {@code requests} requests, each one attempt that counted as ok. */
    private void assertEveryAttemptOk(int requests) throws IOException, InterruptedException {
        assertThat(attempts()).containsExactly(Map.entry("ok", (double) requests));
        assertThat(gateway.upstream().received()).hasSize(requests);
    }

    /** The fake provider's attempt outcomes from /metrics, e.g. {ok=2.0}. */
    private Map<String, Double> attempts() throws IOException, InterruptedException {
        String text = http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/metrics")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Map<String, Double> byOutcome = new TreeMap<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("switchboard_upstream_attempts_total{") && line.contains("provider=\"fake\"")) {
                String outcome = line.replaceAll(".*outcome=\"([^\"]*)\".*", "$1");
                byOutcome.put(outcome, Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
            }
        }
        return byOutcome;
    }

    private static long openDescriptors() {
        String[] fds = new File("/proc/self/fd").list();
        return fds == null ? -1 : fds.length;
    }

    /** This process's open descriptors that are sockets. */
    private static long socketDescriptors() throws java.io.IOException {
        try (var fds = java.nio.file.Files.list(java.nio.file.Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                try {
                    return java.nio.file.Files.readSymbolicLink(fd).toString().startsWith("socket:");
                } catch (java.io.IOException gone) {
                    return false;
                }
            }).count();
        }
    }

    private static long collections() {
        return java.lang.management.ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(java.lang.management.GarbageCollectorMXBean::getCollectionCount).sum();
    }

    /** The gateway's sockets to the fake upstream in one TCP state, counted by {@code ss}. */
    private static int gatewaySockets(int upstreamPort, String state) throws IOException, InterruptedException {
        Process ss = new ProcessBuilder("ss", "-tanH", "state", state, "( dport = :" + upstreamPort + " )")
                .redirectErrorStream(true).start();
        String out = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(ss.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(ss.exitValue()).as("ss: %s", out).isZero();
        return (int) out.lines().filter(l -> !l.isBlank()).count();
    }
}
