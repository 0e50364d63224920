package dev.switchboard.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.engine.account.AdminService;
import dev.switchboard.engine.account.User;
import dev.switchboard.server.GatewayApp;
import dev.switchboard.server.config.ConfigLoader;
import dev.switchboard.wire.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every admin route of a running gateway, whatever its method, refuses a request without the admin key and one with a
 * user's API key, before its handler runs (nothing is created or changed); and a route table with an unguarded admin
 * route cannot be built.
 */
class RouteGuardsTest {
    private static final String ADMIN_KEY = "sk-sb-admin-test-0123456789abcdefghijklmnopqrstuvwxyzABCDEFG";
    private static final String MISSING_ADMIN_KEY = "Missing admin key. Send it as Authorization: Bearer <admin key>.";
    private static final String SIGN_IN_FIRST = "Sign in first: POST /auth/login, then send the sb_session cookie it sets.";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    static Path dir;
    private static GatewayApp app;
    private static String apiKey;

    @BeforeAll
    static void start() {
        // the configuration the gateway runs on without a config file: every route it serves by default
        app = GatewayApp.start(ConfigLoader.embeddedDefault(Map.of(
                "SWITCHBOARD_DATABASE", "sqlite:" + dir.resolve("switchboard.db"), "SWITCHBOARD_ADMIN_KEY", ADMIN_KEY)), 0);
        User user = app.accounts().admin().createUser(new AdminService.CreateUser(Optional.of("it-user"),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.of("100")));
        apiKey = app.accounts().admin().createKey(user.id(), AdminService.CreateKey.defaults()).secret();
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @Test
    void everyAdminRouteRefusesCallersWithoutTheAdminKey() throws Exception {
        List<Route> admin = app.routes().stream().filter(r -> r.pattern().startsWith("/admin/")).toList();
        assertThat(admin).hasSizeGreaterThanOrEqualTo(25);
        long usersBefore = app.accounts().admin().listUsers(0, 100).total();
        for (Route r : admin) {
            String path = r.pattern().replaceAll("\\{[^}]+}", "x");
            // the catalog's operator routes point a caller without credentials at the dashboard sign-in
            String expected = path.startsWith("/admin/v1/extend/") ? SIGN_IN_FIRST : MISSING_ADMIN_KEY;
            assertRefused(r, send(r.method(), path, Map.of()), "auth_required", expected);
            assertRefused(r, send(r.method(), path, Map.of("authorization", "Bearer " + apiKey)),
                    "invalid_request_error", "Invalid admin key.");
            assertRefused(r, send(r.method(), path, Map.of("authorization", "Basic " + ADMIN_KEY)),
                    "auth_required", MISSING_ADMIN_KEY);
            assertRefused(r, send(r.method(), path, Map.of("cookie", "sb_session=not-a-session")),
                    "auth_required", SIGN_IN_FIRST);
            assertThat(send(r.method(), path, Map.of("authorization", "Bearer " + ADMIN_KEY)).statusCode())
                    .as("%s %s with the admin key", r.method(), r.pattern()).isNotIn(401, 403);
        }
        // nor did the admin key's own requests add anyone: their ids are placeholders and their body has an unknown field
        assertThat(app.accounts().admin().listUsers(0, 100).total()).isEqualTo(usersBefore);
    }

    @Test
    void aRouteTableWithAnUnguardedAdminRouteIsRefused() {
        Route unguarded = new Route("GET", "/admin/v1/new", "admin", e -> new byte[0], ex -> { });
        assertThatThrownBy(() -> new RouteTable(List.of(unguarded)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("GET /admin/v1/new");
    }

    private static void assertRefused(Route r, HttpResponse<String> res, String type, String message) {
        String what = r.method() + " " + r.pattern();
        assertThat(res.statusCode()).as(what).isEqualTo(401);
        JsonNode error = Json.parse(res.body()).path("error");
        assertThat(error.path("type").asText()).as(what).isEqualTo(type);
        assertThat(error.path("message").asText()).as(what).isEqualTo(message);
    }

    private static HttpResponse<String> send(String method, String path, Map<String, String> headers) throws Exception {
        HttpRequest.BodyPublisher body = method.equals("GET") || method.equals("DELETE") ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString("{\"mallory\":true}");
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(app.baseUrl() + path)).method(method, body)
                .header("content-type", "application/json");
        headers.forEach(b::header);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
