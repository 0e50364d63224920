package dev.switchboard.testkit.soak;

import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.provider;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.testkit.FakeUpstream;
import dev.switchboard.testkit.PortSupport;
import dev.switchboard.testkit.RawExchange;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.SseStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * SIGTERM drains the gateway (the real process, as an orchestrator stops it): with 50 slow streams open, each one
 * still finishes whole within the grace period, a new connection is refused or answered 503, the process exits 0,
 * and every request was billed exactly once (one usage record and one ledger charge per request id, no hold left).
 * Streams that outlive the grace period are ended with an in-band error, closed, and billed once too.
 */
class DrainIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ADMIN_KEY = "sk-sb-admin-drain-0123456789abcdefghijklmnopqrstuvwxyz";
    private static final String UPSTREAM_KEY = "sk-upstream-drain-0123456789";
    private static final int STREAMS = 50;
    private static final int SHORT_CHUNKS = 20;
    private static final Duration CHUNK_PAUSE = Duration.ofMillis(150);

    private FakeUpstream upstream;
    private GatewayProcess gateway;
    private Path dir;

    /** One stream as the client saw it. */
    private record Seen(int status, String requestId, String content, boolean done, boolean error, String body) {
    }

    private void start(Duration grace) throws Exception {
        configure(grace);
        gateway.start();
    }

    private void configure(Duration grace) throws Exception {
        upstream = FakeUpstream.start();
        upstream.script("drain-short", (request, exchange) -> stream(request, exchange, SHORT_CHUNKS));
        upstream.script("drain-long", (request, exchange) -> stream(request, exchange, 10_000));
        dir = Files.createDirectories(Path.of("target", "drain", "run-" + System.nanoTime()));
        int port = PortSupport.freeLoopbackPort();
        Path config = dir.resolve("drain.yaml");
        Files.writeString(config, """
                listen: 127.0.0.1:%d
                database: sqlite:%s
                admin_key: %s
                http: {heartbeat: 2s, shutdown_grace: %dms}
                """.formatted(port, dir.resolve("drain.db").toAbsolutePath(), ADMIN_KEY, grace.toMillis())
                + providers(provider("fake", "openai", upstream.openAiBaseUrl(),
                        "{connect: 1s, first_byte: 10s, idle: 10s, total: 600s}", UPSTREAM_KEY))
                + models(
                        model("short").pricing("{input: 1, output: 2}").route("fake/drain-short"),
                        model("long").pricing("{input: 1, output: 2}").route("fake/drain-long")));
        gateway = new GatewayProcess(config, dir.resolve("gateway.log"), port, Map.of());
    }

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
        if (upstream != null) {
            upstream.close();
        }
    }

    @Test
    void sigtermLetsOpenStreamsFinishRefusesNewOnesBillsEachOnceAndExitsZero() throws Exception {
        start(Duration.ofSeconds(30));
        String key = apiKey();
        List<Seen> seen = streamThrough(key, "short", () -> {
            gateway.terminate();
            assertNewConnectionsRefused(key);
        });

        OptionalInt exit = gateway.awaitExit(Duration.ofSeconds(60));
        assertThat(exit).as("exit status after SIGTERM (log: %s)", dir.resolve("gateway.log")).hasValue(0);
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < SHORT_CHUNKS; i++) {
            expected.append('[').append(i).append(']');
        }
        for (Seen s : seen) {
            assertThat(s.status()).as(s.body()).isEqualTo(200);
            assertThat(s.error()).as(s.body()).isFalse();
            assertThat(s.done()).as("stream %s ended with [DONE]", s.requestId()).isTrue();
            assertThat(s.content()).as("stream %s is whole", s.requestId()).isEqualTo(expected.toString());
        }
        assertBilledOnce(seen, "COMPLETED");
    }

    @Test
    void streamsOutlivingTheGraceAreEndedInBandClosedAndBilledOnce() throws Exception {
        start(Duration.ofSeconds(2));
        String key = apiKey();
        List<Seen> seen = streamThrough(key, "long", gateway::terminate);

        OptionalInt exit = gateway.awaitExit(Duration.ofSeconds(60));
        assertThat(exit).as("exit status after SIGTERM (log: %s)", dir.resolve("gateway.log")).hasValue(0);
        for (Seen s : seen) {
            assertThat(s.status()).as(s.body()).isEqualTo(200);
            assertThat(s.error()).as("stream %s ends with an in-band error: %s", s.requestId(), s.body()).isTrue();
            assertThat(s.body()).contains("shutting down");
            assertThat(s.content()).startsWith("[0][1]");
        }
        assertBilledOnce(seen, "CUT");
    }

    @Test
    void aSigtermWhileTheGatewayIsStillStartingIsACleanStop() throws Exception {
        configure(Duration.ofSeconds(5));
        gateway.launch();
        // the first line of its own the gateway logs comes once main runs, while the database is opened and
        // before the port is: the signal handlers must be in place by then
        Path log = dir.resolve("gateway.log");
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!(Files.exists(log) && Files.readString(log).contains("dev.switchboard")) && System.nanoTime() - deadline < 0) {
            Thread.sleep(5);
        }
        gateway.terminate();
        assertThat(gateway.awaitExit(Duration.ofSeconds(60))).as("exit status (log: %s)", log).hasValue(0);
    }

    /**
     * Opens {@link #STREAMS} streams of {@code model}, runs {@code whenAllStarted} once every one has its first
     * content, and returns what each client read until its stream closed.
     */
    private List<Seen> streamThrough(String key, String model, ThrowingRunnable whenAllStarted) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        CountDownLatch started = new CountDownLatch(STREAMS);
        List<Future<Seen>> futures = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < STREAMS; i++) {
                futures.add(pool.submit(() -> readStream(http, key, model, started)));
            }
            assertThat(started.await(60, TimeUnit.SECONDS)).as("all streams started").isTrue();
            whenAllStarted.run();
            List<Seen> out = new ArrayList<>();
            for (Future<Seen> f : futures) {
                out.add(f.get(120, TimeUnit.SECONDS));
            }
            return out;
        }
    }

    private Seen readStream(HttpClient http, String key, String model, CountDownLatch started) throws Exception {
        String body = "{\"model\":\"" + model + "\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"drain\"}]}";
        HttpResponse<InputStream> response = http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl()
                        + "/v1/chat/completions")).header("authorization", "Bearer " + key)
                .header("content-type", "application/json").timeout(Duration.ofSeconds(120))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofInputStream());
        String requestId = response.headers().firstValue("x-request-id").orElse("");
        StringBuilder content = new StringBuilder();
        StringBuilder raw = new StringBuilder();
        boolean done = false;
        boolean error = false;
        boolean counted = false;
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                raw.append(line).append('\n');
                if (!line.startsWith("data: ")) {
                    continue;
                }
                String data = line.substring(6);
                if (data.equals("[DONE]")) {
                    done = true;
                    continue;
                }
                JsonNode event = JSON.readTree(data);
                if (event.has("error")) {
                    error = true;
                    continue;
                }
                String text = event.path("choices").path(0).path("delta").path("content").asText("");
                content.append(text);
                if (!counted && !text.isEmpty()) {
                    counted = true;
                    started.countDown();
                }
            }
        } finally {
            if (!counted) {
                started.countDown();
            }
        }
        return new Seen(response.statusCode(), requestId, content.toString(), done, error, raw.toString());
    }

    /** After SIGTERM: /ready leaves 200 at once, and a chat request on a new connection is refused or a 503. */
    private void assertNewConnectionsRefused(String key) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        int ready = 200;
        while (ready == 200 && System.nanoTime() - deadline < 0) {
            ready = freshStatus(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/ready")).GET());
            Thread.sleep(20);
        }
        assertThat(ready).as("/ready after SIGTERM (0: refused)").isIn(503, 0);
        int chat = freshStatus(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/v1/chat/completions"))
                .header("authorization", "Bearer " + key).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"model\":\"short\",\"messages\":[{\"role\":\"user\",\"content\":\"late\"}]}")));
        assertThat(chat).as("a new request after SIGTERM (0: refused)").isIn(503, 0);
    }

    /** The status of one request on a connection of its own; 0 when the connection is refused or cut. */
    private static int freshStatus(HttpRequest.Builder request) throws InterruptedException {
        HttpClient fresh = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2)).build();
        try {
            return fresh.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException e) {
            return 0;
        } finally {
            fresh.close();
        }
    }

    /** One usage record with {@code status} and one ledger charge per request id, and no hold left. */
    private void assertBilledOnce(List<Seen> seen, String status) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("drain.db").toAbsolutePath());
             Statement s = c.createStatement()) {
            Map<String, Integer> records = counts(s, "SELECT request_id, COUNT(*) FROM usage_records WHERE status = '"
                    + status + "' GROUP BY request_id");
            Map<String, Integer> charges = counts(s, "SELECT request_id, COUNT(*) FROM ledger WHERE kind = 'CHARGE' "
                    + "AND amount_nanos < 0 GROUP BY request_id");
            for (Seen one : seen) {
                assertThat(records.get(one.requestId())).as("usage records of %s", one.requestId()).isEqualTo(1);
                assertThat(charges.get(one.requestId())).as("charges of %s", one.requestId()).isEqualTo(1);
            }
            assertThat(records).hasSize(STREAMS);
            assertThat(charges).hasSize(STREAMS);
            try (ResultSet holds = s.executeQuery("SELECT COUNT(*) FROM holds")) {
                holds.next();
                assertThat(holds.getInt(1)).as("holds left").isZero();
            }
        }
    }

    private static Map<String, Integer> counts(Statement s, String sql) throws Exception {
        Map<String, Integer> out = new HashMap<>();
        try (ResultSet r = s.executeQuery(sql)) {
            while (r.next()) {
                out.put(r.getString(1), r.getInt(2));
            }
        }
        return out;
    }

    /** A user with credit and a key, through the admin API. */
    private String apiKey() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        JsonNode user = post(http, "/admin/v1/users", "{\"name\":\"drain\",\"balance_usd\":\"100\"}");
        return post(http, "/admin/v1/users/" + user.path("id").asText() + "/keys", "{}").path("key").asText();
    }

    private JsonNode post(HttpClient http, String path, String body) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path))
                .header("authorization", "Bearer " + ADMIN_KEY).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isBetween(200, 201);
        return JSON.readTree(r.body());
    }

    /** A slow OpenAI stream: {@code chunks} content chunks "[i]", {@link #CHUNK_PAUSE} apart, then usage and [DONE]. */
    private static void stream(RecordedRequest request, RawExchange exchange, int chunks) throws IOException {
        SseStream sse = exchange.openSse(200);
        try {
            sse.data(chunk(JSON.createObjectNode().put("role", "assistant").put("content", ""), null));
            for (int i = 0; i < chunks; i++) {
                Thread.sleep(CHUNK_PAUSE);
                sse.data(chunk(JSON.createObjectNode().put("content", "[" + i + "]"), null));
            }
            sse.data(chunk(JSON.createObjectNode(), "stop"));
            ObjectNode usage = JSON.createObjectNode().put("id", "chatcmpl-drain").put("object", "chat.completion.chunk")
                    .put("created", 0).put("model", "drain");
            usage.putArray("choices");
            usage.putObject("usage").put("prompt_tokens", 5).put("completion_tokens", chunks)
                    .put("total_tokens", 5 + chunks);
            sse.data(JSON.writeValueAsString(usage));
            sse.data("[DONE]");
            sse.end();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String chunk(ObjectNode delta, String finish) throws IOException {
        return SoakUpstreams.chunk("chatcmpl-drain", "drain", delta, finish);
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
