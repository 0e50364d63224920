package dev.switchboard.testkit.it.extend;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.testkit.RecordedRequest;
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

    static final String CONFIG = TestGateway.DEFAULT_HEADER + """
            providers:
              fake:
                type: openai
                base_url: ${UPSTREAM_OPENAI}
                keys: ["sk-upstream-main-0123456789"]
                timeouts: {connect: 1s, first_byte: 3s, idle: 3s, total: 10s}
              claude:
                type: anthropic
                base_url: ${UPSTREAM}
                keys: ["sk-ant-upstream-0123456789"]
                timeouts: {connect: 1s, first_byte: 3s, idle: 3s, total: 10s}
              google:
                type: gemini
                base_url: ${UPSTREAM}
                keys: ["upstream-google-key-0123456789"]
                timeouts: {connect: 1s, first_byte: 3s, idle: 3s, total: 10s}
            x-chat: &chat
              context_length: 100000
              max_output_tokens: 2048
              supports_tools: true
              supports_reasoning: true
              supports_caching: true
              reasoning: {family: hybrid, efforts: [low, medium, high]}
              pricing: {input: 1, output: 2}
            models:
              oa-chat: {<<: *chat, route: [{provider: fake, model: up-skills}]}
              an-chat: {<<: *chat, route: [{provider: claude, model: c-skills}]}
              gm-chat: {<<: *chat, reasoning: {family: hybrid, efforts: [low, medium, high], effort_as: level}, route: [{provider: google, model: g-skills}]}
              oa-other: {<<: *chat, route: [{provider: fake, model: up-other}]}
              oa-plain:
                context_length: 100000
                max_output_tokens: 2048
                pricing: {input: 1, output: 2}
                route: [{provider: fake, model: up-plain}]
              oa-strict:
                context_length: 100000
                max_output_tokens: 2048
                supports_reasoning: true
                refused_params: [temperature, top_p]
                pricing: {input: 1, output: 2}
                route: [{provider: fake, model: up-strict}]
              oa-tiny:
                context_length: 400
                max_output_tokens: 64
                pricing: {input: 0, output: 0}
                route: [{provider: fake, model: up-tiny}]
            """;

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
