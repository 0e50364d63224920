package dev.switchboard.testkit.it.extend;

import static dev.switchboard.testkit.GatewayConfigSupport.TIMEOUTS;
import static dev.switchboard.testkit.GatewayConfigSupport.anthropicProvider;
import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.openAiProvider;
import static dev.switchboard.testkit.GatewayConfigSupport.provider;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.GatewayConfigSupport.Model;
import dev.switchboard.testkit.TestGateway;
import dev.switchboard.testkit.it.SdkGateway;
import dev.switchboard.testkit.it.extend.Browser.Answer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * What the end-to-end tests of skills on chat requests share: a gateway whose models reach the fake upstream in
 * all three provider formats, the test skills (written through the operator route, so they are official and
 * public), a dashboard session of the test user for installing skills, and what the upstream received.
 *
 * <p>Upstream model names: {@code up-skills} (OpenAI format), {@code c-skills} (Anthropic), {@code g-skills}
 * (Gemini). {@code *-chat} models support reasoning (so effort hints show), {@code oa-plain} does not,
 * {@code oa-strict} refuses temperature and top_p, {@code oa-tiny} has a small context window.
 */
final class SkillsItSupport {
    static final String PASSWORD = "correct horse battery";

    static final String CONFIG = TestGateway.DEFAULT_HEADER
            + providers(
                    openAiProvider("fake", "sk-upstream-main-0123456789"),
                    anthropicProvider("claude", "sk-ant-upstream-0123456789"),
                    provider("google", "gemini", "${UPSTREAM}", TIMEOUTS, "upstream-google-key-0123456789"))
            + models(
                    chat("oa-chat", "{family: hybrid, efforts: [low, medium, high]}").route("fake/up-skills"),
                    chat("an-chat", "{family: hybrid, efforts: [low, medium, high]}").route("claude/c-skills"),
                    chat("gm-chat", "{family: hybrid, efforts: [low, medium, high], effort_as: level}").route("google/g-skills"),
                    chat("oa-other", "{family: hybrid, efforts: [low, medium, high]}").route("fake/up-other"),
                    model("oa-plain").limits(100000, 2048).pricing("{input: 1, output: 2}").route("fake/up-plain"),
                    model("oa-strict").limits(100000, 2048).supports("reasoning").pricing("{input: 1, output: 2}")
                            .with("refused_params: [temperature, top_p]").route("fake/up-strict"),
                    model("oa-tiny").limits(400, 64).route("fake/up-tiny"));

    /** The test skills: id and body JSON (single quotes stand for double quotes). */
    static final Map<String, String> SKILLS = Map.of(
            "it-reviewer", "{'system_prompt': 'You review code.', 'rules': [{'type': 'replace', 'find': '(?i)\\\\bpls\\\\b',"
                    + " 'replace': 'please', 'regex': true, 'target': 'all_user'}]}",
            "it-shout", "{'system_prompt': 'Second skill.', 'rules': [{'type': 'append', 'text': ' (loudly)'}]}",
            "it-temperature", "{'hints': {'temperature': 0.25}}",
            "it-top-p", "{'hints': {'top_p': 0.75}}",
            "it-max-tokens", "{'hints': {'max_tokens': 321}}",
            "it-effort", "{'hints': {'reasoning_effort': 'high'}}",
            "it-installed", "{'system_prompt': 'Installed skill.'}",
            "it-installed-too", "{'system_prompt': 'Installed for oa-other only.'}");

    private SkillsItSupport() {
    }

    /** A model with tools, caching and {@code reasoning} (a YAML mapping), as the skills tests' chat models are. */
    private static Model chat(String name, String reasoning) {
        return model(name).limits(100000, 2048).supports("tools", "reasoning", "caching").pricing("{input: 1, output: 2}")
                .with("reasoning: " + reasoning);
    }

    /** The gateway on {@link #CONFIG} with the test skills written, and an SDK client {@code connect} makes. */
    static <C> SdkGateway<C> gateway(Function<TestGateway, C> connect) {
        return new SdkGateway<>(CONFIG, gateway -> {
            writeSkills(gateway);
            return connect.apply(gateway);
        });
    }

    /** Writes the test skills through the operator route (official, public). */
    static void writeSkills(TestGateway gateway) {
        SKILLS.forEach((id, body) -> writeSkill(gateway, id, body));
    }

    static void writeSkill(TestGateway gateway, String id, String body) {
        Answer a = admin(gateway, "PUT", "/admin/v1/extend/skills/" + id, "{\"name\": \"" + id + "\", \"description\": \"test\","
                + " \"body\": " + body.replace('\'', '"') + "}");
        assertThat(a.status()).as(a.body()).isEqualTo(200);
    }

    static Answer admin(TestGateway gateway, String method, String path, String json) {
        return new Browser(gateway.baseUrl()).send(method, path, json.isEmpty() ? Optional.empty() : Optional.of(json),
                Map.of("authorization", "Bearer " + gateway.adminKey()));
    }

    /** A dashboard session of the test user (whose API key the SDK clients use), after giving it a password. */
    static Browser signIn(TestGateway gateway) {
        Answer set = admin(gateway, "PUT", "/admin/v1/users/" + gateway.userId() + "/password",
                "{\"password\": \"" + PASSWORD + "\"}");
        assertThat(set.status()).as(set.body()).isEqualTo(200);
        Browser b = new Browser(gateway.baseUrl());
        Answer a = b.login("it-user", PASSWORD);
        assertThat(a.status()).as(a.body()).isEqualTo(200);
        return b;
    }

    /** The last request the fake upstream received for {@code upstreamModel}. */
    static JsonNode lastSent(TestGateway gateway, String upstreamModel) {
        List<RecordedRequest> received = gateway.upstream().received(upstreamModel);
        assertThat(received).as("requests to " + upstreamModel).isNotEmpty();
        return received.getLast().json();
    }

    /** The last request the fake upstream received for {@code upstreamModel}, whole. */
    static RecordedRequest lastRequest(TestGateway gateway, String upstreamModel) {
        List<RecordedRequest> received = gateway.upstream().received(upstreamModel);
        assertThat(received).as("requests to " + upstreamModel).isNotEmpty();
        return received.getLast();
    }

    /** The system text of an OpenAI-format upstream request (its system message). */
    static String openAiSystem(JsonNode sent) {
        for (JsonNode m : sent.path("messages")) {
            if (m.path("role").asText().equals("system")) {
                return m.path("content").asText();
            }
        }
        return "";
    }

    /** The text of the last user message of an OpenAI-format upstream request. */
    static String openAiLastUser(JsonNode sent) {
        String last = "";
        for (JsonNode m : sent.path("messages")) {
            if (m.path("role").asText().equals("user")) {
                last = m.path("content").isTextual() ? m.path("content").asText() : m.path("content").path(0).path("text").asText();
            }
        }
        return last;
    }

    /** Installs a skill for the signed-in user ({@code models} empty: every model). */
    static void install(Browser b, String skill, List<String> models) {
        String body = models.isEmpty() ? "{}" : "{\"models\": " + models.stream().map(m -> "\"" + m + "\"").toList() + "}";
        Answer a = b.post("/v1/skills/" + skill + "/install", body);
        assertThat(a.status()).as(a.body()).isEqualTo(200);
    }

    static void uninstall(Browser b, String skill) {
        Answer a = b.delete("/v1/skills/" + skill + "/install");
        assertThat(a.status()).as(a.body()).isEqualTo(200);
    }

    /** The use count of a skill once it reaches {@code expected}; the last one seen when it does not in time. */
    static long useCountReaching(TestGateway gateway, String skill, long expected) {
        Instant until = Instant.now().plus(Duration.ofSeconds(20));
        long seen;
        do {
            seen = new Browser(gateway.baseUrl()).get("/v1/skills/" + skill).json().path("use_count").asLong();
            if (seen >= expected) {
                return seen;
            }
            sleep(100);
        } while (Instant.now().isBefore(until));
        return seen;
    }

    static long useCount(TestGateway gateway, String skill) {
        return new Browser(gateway.baseUrl()).get("/v1/skills/" + skill).json().path("use_count").asLong();
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
