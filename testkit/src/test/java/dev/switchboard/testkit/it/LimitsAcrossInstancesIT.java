package dev.switchboard.testkit.it;

import static dev.switchboard.testkit.GatewayConfigSupport.header;
import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.provider;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.server.GatewayApp;
import dev.switchboard.server.config.ConfigLoader;
import dev.switchboard.testkit.FakeUpstream;
import dev.switchboard.testkit.TestGateway;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Limits are exact across gateway instances: two instances sharing PostgreSQL and the real Redis of this machine
 * (each test under a Redis key prefix and a PostgreSQL schema of its own) admit exactly 10 of 40 concurrent
 * requests of a key at rpm 10, spread over both, and exactly as many as a daily token cap holds; the same on one
 * instance without Redis (counters in memory, SQLite).
 */
class LimitsAcrossInstancesIT {
    private static final String REDIS = System.getProperty("switchboard.test.redis.url", "redis://127.0.0.1:6379");
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    /** The estimate of one request below: "hi" is one token, plus max_tokens 100. */
    private static final int ESTIMATE = 101;

    @RegisterExtension
    final GatewayInstances instances = new GatewayInstances("sbit_");
    private List<GatewayApp> apps = List.of();
    private FakeUpstream upstream;

    private String config(String database, String redisLines) {
        return header(database)
                + providers(
                        provider("fake", "openai", upstream.openAiBaseUrl(), "{connect: 1s, first_byte: 4s, idle: 4s, total: 20s}",
                                ItSupport.UPSTREAM_KEY),
                        // holds admitted requests long enough for all 40 to be decided, even on a loaded machine
                        provider("holding", "openai", upstream.openAiBaseUrl(),
                                "{connect: 1s, first_byte: 10s, idle: 10s, total: 20s}", ItSupport.UPSTREAM_KEY))
                + models(model("quick").route("fake/up-quick"), model("held").route("holding/up-held-hang"))
                + redisLines;
    }

    private List<GatewayApp> start(int count, boolean shared) throws Exception {
        upstream = FakeUpstream.start();
        String redisLines = "";
        if (shared) {
            Assumptions.assumeTrue(Boolean.getBoolean("switchboard.test.redis"), "Redis tests are off");
            redisLines = "redis: " + REDIS + "\nlimits: {redis_prefix: \"sbit:" + UUID.randomUUID() + ":\"}\n";
        }
        String yaml = config(instances.database(shared ? "postgresql" : "sqlite"), redisLines);
        for (int i = 0; i < count; i++) {
            instances.start(ConfigLoader.parse(yaml, "instance " + i, Map.of()));
        }
        apps = instances.started();
        return apps;
    }

    @AfterEach
    void stopUpstream() {
        if (upstream != null) {
            upstream.close();
        }
    }

    /** A user with a key limited by {@code limits} (JSON members), made through the first instance's admin API. */
    private String key(String limits) throws Exception {
        String base = apps.getFirst().baseUrl();
        JsonNode user = ItSupport.JSON.readTree(send(base, "/admin/v1/users", TestGateway.ADMIN_KEY,
                "{\"name\": \"u-" + UUID.randomUUID() + "\", \"balance_usd\": \"10\"}").body());
        HttpResponse<String> key = send(base, "/admin/v1/users/" + user.path("id").asText() + "/keys", TestGateway.ADMIN_KEY,
                "{" + limits + "}");
        assertThat(key.statusCode()).as(key.body()).isEqualTo(201);
        return ItSupport.JSON.readTree(key.body()).path("key").asText();
    }

    private static HttpResponse<String> send(String base, String path, String bearer, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                .header("authorization", "Bearer " + bearer).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String ask(String model) {
        return "{\"model\": \"" + model + "\", \"max_tokens\": 100, \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}";
    }

    /** Sends {@code n} requests at once, round-robin over the instances; the statuses in sending order. */
    private List<Integer> burst(int n, String key, String model) throws Exception {
        List<Future<Integer>> answers = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < n; i++) {
                String base = apps.get(i % apps.size()).baseUrl();
                answers.add(pool.submit(() -> send(base, "/v1/chat/completions", key, ask(model)).statusCode()));
            }
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> f : answers) {
                statuses.add(f.get());
            }
            return statuses;
        }
    }

    private void exactlyTheRpm() throws Exception {
        String key = key("\"rpm\": 10");
        List<Integer> statuses = burst(40, key, "quick");
        assertThat(statuses.stream().filter(s -> s == 200).count()).as("statuses %s", statuses).isEqualTo(10);
        assertThat(statuses.stream().filter(s -> s == 429).count()).isEqualTo(30);
        assertThat(upstream.received()).hasSize(10);
    }

    private void exactlyTheDailyCap() throws Exception {
        String key = key("\"daily_tokens\": " + 10 * ESTIMATE);
        // the upstream holds every admitted request until the first-byte deadline: all 40 are decided while the
        // admitted ones still hold their reservations
        List<Integer> statuses = burst(40, key, "held");
        assertThat(statuses.stream().filter(s -> s == 429).count()).as("statuses %s", statuses).isEqualTo(30);
        assertThat(statuses.stream().filter(s -> s == 503).count()).isEqualTo(10);
        // failed requests gave their tokens back: the cap has room again
        HttpResponse<String> after = send(apps.getLast().baseUrl(), "/v1/chat/completions", key, ask("quick"));
        assertThat(after.statusCode()).as(after.body()).isEqualTo(200);
    }

    @Test
    void twoInstancesSharingRedisAdmitExactlyTheRpm() throws Exception {
        start(2, true);
        exactlyTheRpm();
    }

    @Test
    void twoInstancesSharingRedisHoldADailyTokenCapExactly() throws Exception {
        start(2, true);
        exactlyTheDailyCap();
    }

    @Test
    void oneInstanceWithoutRedisAdmitsExactlyTheRpm() throws Exception {
        start(1, false);
        exactlyTheRpm();
    }

    @Test
    void oneInstanceWithoutRedisHoldsADailyTokenCapExactly() throws Exception {
        start(1, false);
        exactlyTheDailyCap();
    }
}
