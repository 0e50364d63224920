package dev.switchboard.testkit.it.ops;

import static dev.switchboard.testkit.GatewayConfigSupport.header;
import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;
import static dev.switchboard.testkit.GatewayConfigSupport.simulatorProvider;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.server.GatewayApp;
import dev.switchboard.server.config.ConfigLoader;
import dev.switchboard.testkit.RedisServer;
import dev.switchboard.testkit.TcpProxy;
import dev.switchboard.testkit.TestGateway;
import dev.switchboard.testkit.it.soak.ScratchSchema;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * {@code GET /ready} per dependency: 503 naming the database while PostgreSQL is unreachable (behind a proxy the test
 * cuts), naming Redis while the configured Redis is down (a redis-server of the test's own), and naming the shutdown
 * once the drain began (new requests then get 503 too); 200 again when the dependency is back. Each answer comes
 * within the HTTP client's 5 s, though the pool would wait 15 s for a connection.
 */
class ReadinessIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final List<AutoCloseable> opened = new ArrayList<>();
    private ScratchSchema schema;

    private GatewayApp gateway(String database, String extra) {
        String yaml = header(database)
                + models(model("sim").route("sim/echo")) + providers(simulatorProvider("sim")) + extra;
        GatewayApp app = GatewayApp.start(ConfigLoader.parse(yaml, "readiness-it", Map.of()), 0);
        opened.add(app);
        return app;
    }

    private String sqlite() throws IOException {
        Path dir = Files.createTempDirectory("switchboard-ready-it");
        return "sqlite:" + dir.resolve("switchboard.db");
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : opened.reversed()) {
            c.close();
        }
        if (schema != null) {
            schema.close();
        }
    }

    @Test
    void redisDownMakesTheInstanceNotReadyAndBackMakesItReady() throws Exception {
        RedisServer redis = RedisServer.start();
        opened.add(redis);
        GatewayApp app = gateway(sqlite(), "redis: " + redis.url() + "\n");
        JsonNode ready = await(app, 200);
        assertThat(ready.path("redis").asText()).isEqualTo("ok");
        assertThat(ready.path("database").asText()).isEqualTo("ok");

        redis.stop();
        JsonNode down = await(app, 503);
        assertThat(down.path("status").asText()).isEqualTo("not ready");
        assertThat(down.path("redis").asText()).isEqualTo("unreachable");
        assertThat(down.path("database").asText()).isEqualTo("ok");
        assertThat(down.path("not_ready").toString()).isEqualTo("[\"redis\"]");

        redis.startAgain();
        assertThat(await(app, 200).path("redis").asText()).isEqualTo("ok");
    }

    @Test
    void withoutRedisConfiguredReadinessDoesNotNameIt() throws Exception {
        JsonNode ready = await(gateway(sqlite(), ""), 200);
        assertThat(ready.has("redis")).isFalse();
        assertThat(ready.path("not_ready").size()).isZero();
    }

    @Test
    @EnabledIfSystemProperty(named = "switchboard.test.postgres", matches = "true")
    void databaseUnreachableMakesTheInstanceNotReadyWithinTheTimeout() throws Exception {
        schema = ScratchSchema.create("sbready_");
        URI pg = URI.create(ScratchSchema.POSTGRES.replace("postgresql://", "http://"));
        TcpProxy proxy = TcpProxy.start(pg.getHost(), pg.getPort());
        opened.add(proxy);
        String viaProxy = "postgresql://" + pg.getUserInfo() + "@127.0.0.1:" + proxy.port() + pg.getPath()
                + "?currentSchema=" + schema.name();
        GatewayApp app = gateway(viaProxy, "");
        assertThat(await(app, 200).path("database").asText()).isEqualTo("ok");

        proxy.cut();
        JsonNode down = await(app, 503);
        assertThat(down.path("database").asText()).isEqualTo("unreachable");
        assertThat(down.path("not_ready").toString()).isEqualTo("[\"database\"]");
        // a probe storm while the database is away: every probe answers (503), none waits for the pool's 15 s
        for (int i = 0; i < 20; i++) {
            assertThat(ready(app).statusCode()).isEqualTo(503);
        }

        proxy.restore();
        assertThat(await(app, 200).path("database").asText()).isEqualTo("ok");
    }

    @Test
    void drainingMakesTheInstanceNotReadyAndRefusesNewRequests() throws Exception {
        GatewayApp app = gateway(sqlite(), "");
        await(app, 200);
        GatewayApp.DrainResult result = app.drain(Duration.ofSeconds(5));
        assertThat(result.streamsEnded()).isZero();
        assertThat(result.leftRunning()).isZero();

        HttpResponse<String> ready = ready(app);
        assertThat(ready.statusCode()).isEqualTo(503);
        JsonNode body = JSON.readTree(ready.body());
        assertThat(body.path("shutdown").asText()).isEqualTo("shutting down");
        assertThat(body.path("database").asText()).isEqualTo("ok");
        assertThat(body.path("not_ready").toString()).isEqualTo("[\"shutdown\"]");
        // liveness stays 200: the process is healthy, only leaving
        assertThat(send(app, "/health").statusCode()).isEqualTo(200);
        HttpResponse<String> refused = send(app, "/v1/models");
        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.body()).contains("shutting down");
        assertThat(refused.headers().firstValue("connection")).hasValue("close");
    }

    /** Polls {@code /ready} until it answers {@code status} (at most 15 s); returns that answer's body. */
    private static JsonNode await(GatewayApp app, int status) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        HttpResponse<String> last = null;
        while (System.nanoTime() - deadline < 0) {
            last = ready(app);
            if (last.statusCode() == status) {
                return JSON.readTree(last.body());
            }
            Thread.sleep(100);
        }
        throw new AssertionError("/ready never answered " + status + "; last: " + (last == null ? "none"
                : last.statusCode() + " " + last.body()));
    }

    private static HttpResponse<String> ready(GatewayApp app) throws Exception {
        return send(app, "/ready");
    }

    private static HttpResponse<String> send(GatewayApp app, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(app.baseUrl() + path)).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

}
