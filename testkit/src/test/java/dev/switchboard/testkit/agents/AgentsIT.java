package dev.switchboard.testkit.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.testkit.AccessLogCapture;
import dev.switchboard.testkit.JsonSupport;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestGateway;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The agent suite: Claude Code, Codex, Gemini CLI and opencode, installed from npm at their pinned versions,
 * each run non-interactively with its own defaults (default model, reasoning, tools, caching) against a
 * gateway whose providers all speak one upstream format, played by the fake upstream. Everything runs in a
 * loopback-only network namespace (see {@code src/test/agents/netns/bin/java}); without one, or without the
 * switch {@code -Dswitchboard.test.agents=true}, the suite skips with one line saying why.
 *
 * <p>Every run must: exit 0; make a tool round trip (the fake calls a read-only tool of the agent with
 * arguments that make it run, the agent runs it and sends the result, the fake answers with text); see no
 * 4xx/5xx from the gateway; and reach the upstream with what the agent asked for (its system prompt,
 * system entries between turns, tools, cache markers, thinking and its signatures). What each agent sent
 * and what each upstream received is written under {@code target/agent-runs/} for reading and for the wire
 * fixtures ({@code wire/src/test/resources/agents/}).
 */
class AgentsIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String UPSTREAM_KEY = "sk-upstream-agents-0123456789";
    private static final Optional<String> SKIP = Optional.ofNullable(System.getenv("SWITCHBOARD_AGENTS_SKIP"))
            .or(() -> System.getenv("SWITCHBOARD_AGENTS_BIN") == null
                    ? Optional.of("not started by src/test/agents/netns/bin/java (the testkit pom's `agents` execution)")
                    : Optional.empty());
    private static final Map<UpstreamKind, TestGateway> GATEWAYS = new EnumMap<>(UpstreamKind.class);

    /**
     * The upstream formats a run goes through: every provider of the built-in catalog that its models' routes
     * name first (the agents' default models live there) is of this type and points at the fake, so a default
     * model reaches the fake in this format whichever provider the catalog sends it to. A new provider type
     * adds a constant here.
     */
    enum UpstreamKind {
        ANTHROPIC,
        OPENAI,
        GEMINI,
        /** OpenAI's Responses API: the catalog routes Codex's default model to its {@code openai-responses} provider. */
        OPENAI_RESPONSES;

        /** The provider {@code type} of the config: the constant's name in lower case, words joined by '-'. */
        String type() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /** Where the fake answers this type: the OpenAI formats' base URLs end in {@code /v1}. */
        String baseUrl() {
            return this == OPENAI || this == OPENAI_RESPONSES ? "${UPSTREAM_OPENAI}" : "${UPSTREAM}";
        }

        String config() {
            StringBuilder yaml = new StringBuilder(TestGateway.DEFAULT_HEADER).append("include: builtin-catalog\nproviders:\n");
            for (String id : List.of("anthropic", "openai", "openai-responses", "gemini")) {
                yaml.append("  ").append(id).append(":\n")
                        .append("    type: ").append(type()).append('\n')
                        .append("    base_url: ").append(baseUrl()).append('\n')
                        .append("    keys: [\"").append(UPSTREAM_KEY).append("\"]\n");
            }
            return yaml.toString();
        }
    }

    @BeforeAll
    static void agentsAvailable() {
        assumeTrue(SKIP.isEmpty(), () -> "agent suite skipped: " + SKIP.orElse(""));
    }

    @AfterAll
    static void stopGateways() {
        GATEWAYS.values().forEach(TestGateway::close);
        GATEWAYS.clear();
    }

    static Stream<Arguments> runs() {
        List<Arguments> runs = new ArrayList<>();
        for (CodingAgent agent : CodingAgent.values()) {
            for (UpstreamKind kind : UpstreamKind.values()) {
                runs.add(Arguments.of(agent, kind));
            }
        }
        return runs.stream();
    }

    @ParameterizedTest(name = "{0} over {1} upstreams")
    @MethodSource("runs")
    void runsWithItsDefaults(CodingAgent agent, UpstreamKind kind) {
        TestGateway gateway = GATEWAYS.computeIfAbsent(kind, k -> TestGateway.start(k.config()));
        // Said before the run: a missing default model would otherwise show only as a 404 in the agent's output.
        assertThat(missingFromCatalog(gateway, agent.defaultModels()))
                .as("%s's default models the built-in catalog does not serve (by id or alias)", agent).isEmpty();
        gateway.upstream().reset();
        CodingAgent.Workspace ws = CodingAgent.Workspace.create(agent.name().toLowerCase(Locale.ROOT));
        gateway.upstream().preferCalls(agent.toolCalls(ws));
        Path binaries = Path.of(System.getenv("SWITCHBOARD_AGENTS_BIN"));

        AgentRun run;
        List<AccessLogCapture.Line> access;
        List<RecordingProxy.Exchange> sent;
        try (AccessLogCapture log = AccessLogCapture.open(); RecordingProxy proxy = RecordingProxy.start(gateway.baseUrl())) {
            run = AgentRun.start(binaries, agent, ws, agent.launch(ws, proxy.baseUrl(), gateway.apiKey()));
            access = log.lines();
            sent = proxy.exchanges();
        }
        List<RecordedRequest> received = gateway.upstream().received();
        keep(agent, kind, sent, received, run);

        List<AccessLogCapture.Line> refused = access.stream().filter(l -> l.status() >= 400).toList();
        assertThat(refused).as("requests the gateway refused or failed (%s over %s)\n%s", agent, kind, run.tail()).isEmpty();
        assertThat(run.exitCode()).as("exit code of %s over %s\n%s", agent, kind, run.tail()).isZero();

        String tool = agent.toolCalls(ws).getFirst().toolName();
        List<RecordedRequest> chats = received.stream().filter(AgentsIT::isChat).toList();
        assertThat(chats).as("chat requests upstream").isNotEmpty();
        assertThat(chats).as("a request offering the tool %s", tool).anyMatch(r -> UpstreamShape.of(kind, r).toolNames().contains(tool));
        assertThat(chats).as("a request carrying the tool's output back (%s)", agent.toolOutputMarker())
                .anyMatch(r -> UpstreamShape.of(kind, r).toolResultTexts().stream().anyMatch(t -> t.contains(agent.toolOutputMarker())));
        assertThat(run.stdout()).as("the answer after the tool result reached the user\n%s", run.tail())
                .contains("Tool result received");

        for (RecordedRequest r : chats) {
            assertThat(UpstreamShape.of(kind, r).systemText()).as("system prompt upstream in %s", r.path()).isNotBlank();
        }
        AgentExpectations.check(agent, kind, sent, chats);
    }

    /** The ids (or aliases) the gateway's model list does not know. */
    private static List<String> missingFromCatalog(TestGateway gateway, List<String> ids) {
        try (java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient()) {
            java.net.http.HttpResponse<String> r = http.send(java.net.http.HttpRequest.newBuilder(
                            java.net.URI.create(gateway.baseUrl() + "/v1/models"))
                    .header("authorization", "Bearer " + gateway.apiKey()).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            java.util.Set<String> known = new java.util.HashSet<>();
            json(r.body()).path("data").forEach(m -> {
                known.add(m.path("id").asText());
                m.path("aliases").forEach(a -> known.add(a.asText()));
            });
            return ids.stream().filter(id -> !known.contains(id)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static boolean isChat(RecordedRequest r) {
        return r.method().equals("POST") && (r.path().endsWith("/messages") || r.path().endsWith("/chat/completions")
                || r.path().contains(":generateContent") || r.path().contains(":streamGenerateContent")
                || r.path().endsWith("/responses"));
    }

    /** Writes what the agent sent and what the upstream received under target/agent-runs/, for reading and fixtures. */
    private static void keep(CodingAgent agent, UpstreamKind kind, List<RecordingProxy.Exchange> sent,
                             List<RecordedRequest> received, AgentRun run) {
        Path dir = Path.of("target", "agent-runs", agent.name().toLowerCase(Locale.ROOT) + "-" + kind.name().toLowerCase(Locale.ROOT));
        try {
            Files.createDirectories(dir);
            // A longer earlier run of the same pair would otherwise leave files that read as part of this one.
            try (Stream<Path> old = Files.list(dir)) {
                for (Path f : old.toList()) {
                    Files.delete(f);
                }
            }
            for (int i = 0; i < sent.size(); i++) {
                RecordingProxy.Exchange e = sent.get(i);
                Files.writeString(dir.resolve("client-%02d.txt".formatted(i)), e.method() + " " + e.pathAndQuery() + " -> "
                        + e.status() + "\n" + headers(e.headers()) + "\n" + e.bodyText());
            }
            for (int i = 0; i < received.size(); i++) {
                RecordedRequest r = received.get(i);
                Files.writeString(dir.resolve("upstream-%02d.txt".formatted(i)), r.method() + " " + r.path()
                        + (r.query().isEmpty() ? "" : "?" + r.query()) + "\n" + r.headers() + "\n\n" + r.bodyText());
            }
            Files.writeString(dir.resolve("output.txt"), "exit " + run.exitCode() + "\n" + run.tail());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String headers(Map<String, String> headers) {
        StringBuilder sb = new StringBuilder();
        headers.forEach((k, v) -> sb.append(k).append(": ").append(k.contains("key") || k.equals("authorization") ? "<redacted>" : v)
                .append('\n'));
        return sb.toString();
    }

    static JsonNode json(String text) {
        return JsonSupport.json(text);
    }
}
