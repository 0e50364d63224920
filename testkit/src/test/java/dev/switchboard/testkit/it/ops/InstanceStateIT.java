package dev.switchboard.testkit.it.ops;

import static dev.switchboard.testkit.GatewayConfigSupport.header;
import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;
import static dev.switchboard.testkit.GatewayConfigSupport.simulatorProvider;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.engine.account.ApiKeys;
import dev.switchboard.server.GatewayApp;
import dev.switchboard.server.config.ConfigLoader;
import dev.switchboard.testkit.ShiftedClock;
import dev.switchboard.testkit.TestGateway;
import dev.switchboard.testkit.it.GatewayInstances;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What one instance sees of another's changes, on one database (a SQLite file, and PostgreSQL with
 * {@code -Dswitchboard.test.postgres=true}): a key revoked through instance A's admin API is refused by A at once
 * and by instance B once B's reused lookup ran out ({@link ApiKeys#CACHE_TTL}, the documented bound); and
 * {@code GET /v1/models} answers the same {@code created} on instances started at different times (B's clock runs
 * three days ahead), derived from the catalog.
 */
class InstanceStateIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    @RegisterExtension
    final GatewayInstances instances = new GatewayInstances("sbinst_");

    private GatewayApp start(String database, Clock clock) {
        String yaml = header(database)
                + providers(simulatorProvider("sim"))
                + models(
                        model("dated").with("source: {url: https://example.com/pricing, as_of: 2026-11-01}")
                                .route("sim/switchboard-demo"),
                        model("undated").route("sim/switchboard-demo"));
        return instances.start(ConfigLoader.parse(yaml, "instances-it", Map.of()), clock);
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void aKeyRevokedOnOneInstanceIsRefusedByAnotherWithinTheReuseBound(String kind) throws Exception {
        String db = instances.database(kind);
        GatewayApp a = start(db, Clock.systemUTC());
        GatewayApp b = start(db, Clock.systemUTC());
        JsonNode key = newKey(a);
        String secret = key.path("key").asText();
        // B has looked the key up and reuses that lookup
        assertThat(send(b, "GET", "/v1/models", secret, null).statusCode()).isEqualTo(200);

        assertThat(send(a, "DELETE", "/admin/v1/keys/" + key.path("id").asText(), TestGateway.ADMIN_KEY, null)
                .statusCode()).isBetween(200, 204);
        assertThat(send(a, "GET", "/v1/models", secret, null).statusCode()).as("the revoking instance, at once")
                .isEqualTo(401);
        // B's reused lookup was made before the revocation, so it has run out one CACHE_TTL after it at the latest
        Thread.sleep(ApiKeys.CACHE_TTL.toMillis() + 50);
        HttpResponse<String> onB = send(b, "GET", "/v1/models", secret, null);
        assertThat(onB.statusCode()).as("the other instance, within %s: %s", ApiKeys.CACHE_TTL, onB.body()).isEqualTo(401);
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void modelsListTheSameCreatedOnEveryInstanceWhateverItsStartTime(String kind) throws Exception {
        String db = instances.database(kind);
        GatewayApp a = start(db, Clock.systemUTC());
        ShiftedClock later = new ShiftedClock();
        later.shift(Duration.ofDays(3));
        GatewayApp b = start(db, later);

        String secret = newKey(a).path("key").asText();
        Map<String, Long> onA = created(a, secret);
        Map<String, Long> onB = created(b, secret);
        assertThat(onA).isEqualTo(onB).containsKeys("dated", "undated");
        assertThat(onA.get("dated")).isEqualTo(LocalDate.of(2026, 11, 1).atStartOfDay(ZoneOffset.UTC).toEpochSecond());
        assertThat(onA.get("undated")).isEqualTo(dev.switchboard.server.api.ModelsApi.UNDATED_CREATED);
    }

    /** A new user's new key (its {@code id} and secret {@code key}), made through {@code app}'s admin API. */
    private static JsonNode newKey(GatewayApp app) throws Exception {
        JsonNode user = JSON.readTree(send(app, "POST", "/admin/v1/users", TestGateway.ADMIN_KEY,
                "{\"name\":\"u-" + UUID.randomUUID() + "\",\"balance_usd\":\"1\"}").body());
        return JSON.readTree(send(app, "POST", "/admin/v1/users/" + user.path("id").asText() + "/keys",
                TestGateway.ADMIN_KEY, "{}").body());
    }

    private static Map<String, Long> created(GatewayApp app, String key) throws Exception {
        HttpResponse<String> r = send(app, "GET", "/v1/models", key, null);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        Map<String, Long> out = new LinkedHashMap<>();
        for (JsonNode m : JSON.readTree(r.body()).path("data")) {
            out.put(m.path("id").asText(), m.path("created").asLong());
            assertThat(m.path("created_at").asText()).isEqualTo(java.time.Instant.ofEpochSecond(m.path("created").asLong())
                    .toString());
        }
        return out;
    }

    private static HttpResponse<String> send(GatewayApp app, String method, String path, String key, String body)
            throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(app.baseUrl() + path)).timeout(Duration.ofSeconds(10))
                .header("authorization", "Bearer " + key);
        if (body != null) {
            r.header("content-type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        } else {
            r.method(method, HttpRequest.BodyPublishers.noBody());
        }
        return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

}
