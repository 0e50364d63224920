package dev.switchboard.testkit.it.extend;

import static dev.switchboard.testkit.GatewayConfigSupport.header;
import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;
import static dev.switchboard.testkit.GatewayConfigSupport.simulatorProvider;
import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.engine.account.AdminService;
import dev.switchboard.server.GatewayApp;
import dev.switchboard.server.config.ConfigLoader;
import dev.switchboard.server.config.GatewayConfig;
import dev.switchboard.testkit.TestGateway;
import dev.switchboard.testkit.it.GatewayInstances;
import dev.switchboard.testkit.it.extend.Browser.Answer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Several gateway instances on one database (SQLite file, and PostgreSQL with
 * {@code -Dswitchboard.test.postgres=true}): a session opened on one works on the other and a sign-out on either
 * ends it on both at once; an expired session is refused; instances started at the same moment load the starter
 * catalog exactly once between them.
 */
class SessionsAcrossInstancesIT {
    private static final String PASSWORD = "correct horse battery";

    @RegisterExtension
    final GatewayInstances instances = new GatewayInstances("sbit_");

    private GatewayApp start(String database, String extra) {
        String yaml = header(database)
                + providers(simulatorProvider("sim")) + models(model("sim-chat").route("sim/switchboard-demo")) + extra;
        GatewayConfig config = ConfigLoader.parse(yaml, "test config", Map.of());
        return instances.start(config);
    }

    private static void createUser(GatewayApp app, String name) {
        app.accounts().admin().createUser(new AdminService.CreateUser(Optional.of(name), Optional.empty(), Optional.of(PASSWORD),
                Optional.empty(), Optional.empty()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void aSignOutOnOneInstanceEndsTheSessionOnTheOther(String kind) throws Exception {
        String db = instances.database(kind);
        GatewayApp a = start(db, "");
        GatewayApp b = start(db, "");
        createUser(a, "ann");

        Browser onA = new Browser(a.baseUrl());
        assertThat(onA.login("ann", PASSWORD).status()).isEqualTo(200);
        Browser onB = new Browser(b.baseUrl());
        onB.adoptSession(onA.sessionCookie().orElseThrow(), onA.csrf());

        assertThat(onB.get("/auth/me").json().path("user").path("name").asText()).isEqualTo("ann");
        Answer liked = onB.post("/v1/skills/code-reviewer/like");
        assertThat(liked.status()).as("a write through the other instance, same session and token").isEqualTo(200);

        assertThat(onB.post("/auth/logout").status()).isEqualTo(204);
        assertThat(onA.get("/auth/me").status()).as("instance A refuses the cookie at once").isEqualTo(401);
        assertThat(onA.post("/v1/skills/code-reviewer/like").status()).isEqualTo(401);
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void anExpiredSessionIsRefused(String kind) throws Exception {
        GatewayApp app = start(instances.database(kind), """
                dashboard:
                  session_max: 2s
                """);
        createUser(app, "ann");
        Browser browser = new Browser(app.baseUrl());
        Answer login = browser.login("ann", PASSWORD);
        assertThat(login.header("set-cookie").orElseThrow()).contains("Max-Age=2");
        assertThat(browser.get("/auth/me").status()).isEqualTo(200);
        String cookie = browser.sessionCookie().orElseThrow();

        Thread.sleep(2_500);
        Browser keepsTheCookie = new Browser(app.baseUrl());
        keepsTheCookie.adoptSession(cookie, Optional.of(login.json().path("csrf_token").asText()));
        Answer me = keepsTheCookie.get("/auth/me");
        assertThat(me.status()).as("past its absolute lifetime, even if a client keeps the cookie").isEqualTo(401);
        assertThat(keepsTheCookie.post("/v1/skills/code-reviewer/like").status()).isEqualTo(401);
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void instancesStartingAtOnceLoadTheStarterCatalogOnce(String kind) throws Exception {
        String db = instances.database(kind);
        GatewayApp first = start(db, "");
        long skills = count(first, "/v1/skills");
        first.close();
        assertThat(skills).isGreaterThanOrEqualTo(20);

        // a fresh database for the race
        String fresh = instances.database(kind);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Callable<GatewayApp>> starts = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                starts.add(() -> start(fresh, ""));
            }
            List<GatewayApp> started = new ArrayList<>();
            for (Future<GatewayApp> f : pool.invokeAll(starts)) {
                started.add(f.get());
            }
            for (GatewayApp app : started) {
                assertThat(count(app, "/v1/skills")).as("no duplicates, nothing missing").isEqualTo(skills);
                assertThat(count(app, "/v1/plugins")).isGreaterThanOrEqualTo(3);
            }
            Browser any = new Browser(started.get(0).baseUrl());
            assertThat(any.get("/v1/plugins/download/switchboard-codex-config.toml").status()).isEqualTo(200);
        } finally {
            pool.shutdownNow();
        }
        GatewayApp later = start(fresh, "");
        assertThat(count(later, "/v1/skills")).as("a later start adds nothing").isEqualTo(skills);
    }

    private static long count(GatewayApp app, String path) {
        return new Browser(app.baseUrl()).get(path).json().path("total").asLong();
    }
}
