package dev.switchboard.testkit.it.dashboard;

import static dev.switchboard.testkit.GatewayConfigSupport.SLOWER;
import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.provider;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.engine.session.DashboardRole;
import dev.switchboard.engine.session.SessionPolicy;
import dev.switchboard.engine.session.Sessions;
import dev.switchboard.testkit.RecordedRequest;
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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The dashboard in a real browser: Debian's Chromium driven by npm {@code playwright-core} (installed into
 * {@code target/playwright} on first run; it never downloads a browser) against a gateway started here with the fake
 * upstream. The flow ({@code src/test/dashboard/flow.mjs}): sign in, create a key and call the gateway with it through
 * curl, find the request in usage with its cost, change a saved default and see it applied in the playground, fork and
 * edit a skill with the rules editor and its preview, install it and see it applied in the playground, visit every
 * page at desktop and 375 px width (screenshots and first-paint / weight figures under {@code target/dashboard/}),
 * sign out.
 *
 * <p>Skips with one line when Chromium cannot start here; everything else that goes wrong fails.
 */
class DashboardBrowserIT {
    static final String PLAYWRIGHT_VERSION = "1.65.1";
    static final String PASSWORD = "flow-password-0123";
    static final ObjectMapper JSON = new ObjectMapper();
    static final Path OUT = Path.of("target", "dashboard");

    static final String CONFIG = TestGateway.DEFAULT_HEADER
            + providers(
                    provider("fake", "openai", "${UPSTREAM_OPENAI}", SLOWER, "sk-upstream-dash-0123456789"),
                    provider("claude", "anthropic", "${UPSTREAM}", SLOWER, "sk-ant-upstream-dash-0123456789"))
            + models(
                    model("flow-chat").limits(128000, 4096).supports("tools", "reasoning")
                            .with("reasoning: {family: hybrid, efforts: [low, medium, high]}").pricing("{input: 3, output: 15}")
                            .route("fake/up-flow"),
                    model("flow-claude").limits(200000, 8192).supports("reasoning", "caching")
                            .with("reasoning: {family: hybrid, efforts: [low, medium, high]}")
                            .pricing("{input: 3, output: 15, cache_read: 0.3}").route("claude/c-flow-reasoning"));

    private static TestGateway gateway;

    @BeforeAll
    static void chromiumStarts() {
        Optional<String> why = Chromium.cannotStart();
        assumeTrue(why.isEmpty(), () -> "dashboard browser suite skipped: " + why.orElse(""));
        gateway = TestGateway.start(CONFIG);
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    void theWholeFlowWorksInARealBrowser() throws Exception {
        Sessions sessions = gateway.app().accounts().sessions(SessionPolicy.DEFAULT);
        String userId = gateway.userId();
        sessions.setPassword(userId, PASSWORD);
        sessions.setRole(userId, DashboardRole.ADMIN);
        // An official skill to fork: written through the operator route, as an operator would.
        HttpResponse<String> seeded = admin("PUT", "/admin/v1/extend/skills/flow-reviewer", """
                {"name": "Flow reviewer", "description": "Reviews code carefully.", "tags": ["code", "review"],
                 "body": {"system_prompt": "You are a careful reviewer.",
                          "rules": [{"type": "replace", "find": "\\\\bpls\\\\b", "replace": "please", "regex": true}],
                          "hints": {"temperature": 0.2}}}""");
        assertThat(seeded.statusCode()).as(seeded.body()).isEqualTo(200);

        Path node = Playwright.install(PLAYWRIGHT_VERSION);
        Files.createDirectories(OUT);
        Path report = OUT.resolve("report.json");
        Files.deleteIfExists(report);
        ProcessBuilder pb = new ProcessBuilder("node", Path.of("src", "test", "dashboard", "flow.mjs").toString())
                .redirectErrorStream(true).redirectOutput(OUT.resolve("flow.log").toFile());
        pb.environment().putAll(Map.of(
                "SB_BASE_URL", gateway.baseUrl(),
                "SB_LOGIN", "it-user",
                "SB_PASSWORD", PASSWORD,
                "SB_OUT", OUT.toAbsolutePath().toString(),
                "SB_PLAYWRIGHT", node.toAbsolutePath().toString(),
                "SB_CHROMIUM", Chromium.path(),
                "SB_MODEL", "flow-chat"));
        Process flow = pb.start();
        boolean done = flow.waitFor(6, TimeUnit.MINUTES);
        if (!done) {
            flow.destroyForcibly();
        }
        String log = Files.readString(OUT.resolve("flow.log"));
        assertThat(done).as("the browser flow finished within 6 minutes\n%s", log).isTrue();
        assertThat(flow.exitValue()).as("the browser flow's exit status\n%s", log).isZero();

        JsonNode result = JSON.readTree(report.toFile());
        System.out.println(Report.table(result));
        for (JsonNode page : result.path("pages")) {
            assertThat(page.path("weight_bytes").asLong()).as("weight of %s", page.path("page").asText()).isLessThan(300 * 1024);
            assertThat(page.path("screenshot").asText()).isNotEmpty();
            assertThat(Files.exists(OUT.resolve(page.path("screenshot").asText()))).isTrue();
        }
        // What the browser did reached the upstream as the dashboard said: the forked skill's rule ran on the text.
        List<String> lastUserTexts = new ArrayList<>();
        for (RecordedRequest r : gateway.upstream().received()) {
            JsonNode messages = r.json().path("messages");
            if (!messages.isEmpty()) {
                lastUserTexts.add(messages.get(messages.size() - 1).path("content").toString());
            }
        }
        assertThat(lastUserTexts).as("a playground request carried the installed fork's rule").anyMatch(t -> t.contains("SKILLED:"));
    }

    static HttpResponse<String> admin(String method, String path, String json) throws IOException, InterruptedException {
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path)).timeout(Duration.ofSeconds(30))
                    .header("authorization", "Bearer " + gateway.adminKey()).header("content-type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
        }
    }
}
