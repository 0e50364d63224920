package dev.switchboard.testkit.it.extend;

import static dev.switchboard.testkit.it.extend.SkillsItSupport.lastSent;
import static dev.switchboard.testkit.it.extend.SkillsItSupport.openAiSystem;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.testkit.GatewayExtension;
import dev.switchboard.testkit.TestGateway;
import dev.switchboard.testkit.it.extend.Browser.Answer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/**
 * How skills meet the rest of a chat request: the context window and middle-out see a skill's prompt, a prefill
 * and the tool definitions are never rewritten, {@code use_count} counts billed requests exactly, the request
 * log names the skills, allowed-params says how skills are named, another user's private skill is as unknown
 * as a missing one, a model takes at most eight installed skills, and the preview route for the rules editor.
 */
class SkillsInterplayIT {
    @RegisterExtension
    static final GatewayExtension GATEWAY = new GatewayExtension(SkillsItSupport.CONFIG);

    private static TestGateway gateway;

    @BeforeAll
    static void setUp() {
        gateway = GATEWAY.gateway();
        SkillsItSupport.writeSkills(gateway);
        SkillsItSupport.writeSkill(gateway, "it-long", "{'system_prompt': '" + "Think about it. ".repeat(100) + "'}");
        SkillsItSupport.writeSkill(gateway, "it-counted", "{'system_prompt': 'Counted.'}");
    }

    private static Answer chat(String json, String... headers) {
        Map<String, String> h = new java.util.HashMap<>(Map.of("authorization", "Bearer " + gateway.apiKey()));
        for (int i = 0; i < headers.length; i += 2) {
            h.put(headers[i], headers[i + 1]);
        }
        return new Browser(gateway.baseUrl()).send("POST", "/v1/chat/completions", Optional.of(json), h);
    }

    private static String conversation(int turns) {
        List<String> messages = new ArrayList<>();
        for (int i = 0; i < turns; i++) {
            messages.add("{\"role\": \"user\", \"content\": \"question " + i + "\"}");
            messages.add("{\"role\": \"assistant\", \"content\": \"answer " + i + "\"}");
        }
        messages.add("{\"role\": \"user\", \"content\": \"last question\"}");
        return "[" + String.join(", ", messages) + "]";
    }

    @Test
    void aSkillsPromptCountsTowardTheContextWindowAndMiddleOutKeepsIt() {
        String messages = conversation(4);
        assertThat(chat("{\"model\": \"oa-tiny\", \"messages\": " + messages + "}").status()).isEqualTo(200);

        Answer overflow = chat("{\"model\": \"oa-tiny\", \"skill\": \"it-long\", \"messages\": " + messages + "}");
        assertThat(overflow.status()).isEqualTo(400);
        assertThat(overflow.errorParam()).isEqualTo("messages");
        assertThat(overflow.body()).contains("middle-out");

        Answer trimmed = chat("{\"model\": \"oa-tiny\", \"skills\": [\"it-reviewer\"], \"transforms\": [\"middle-out\"],"
                + " \"messages\": " + conversation(150) + "}");
        assertThat(trimmed.status()).as(trimmed.body()).isEqualTo(200);
        JsonNode sent = lastSent(gateway, "up-tiny");
        assertThat(openAiSystem(sent)).isEqualTo("You review code.");
        JsonNode kept = sent.path("messages");
        assertThat(kept.size()).as("middle-out dropped messages").isLessThan(1 + 301);
        assertThat(kept.get(1).path("content").asText()).as("the first message is kept").isEqualTo("question 0");
        assertThat(kept.get(kept.size() - 1).path("content").asText()).isEqualTo("last question");
    }

    @Test
    void aPrefillAndTheToolDefinitionsAreNeverRewritten() {
        Answer a = chat("""
                {"model": "oa-chat", "skill": "it-reviewer",
                 "tools": [{"type": "function", "function": {"name": "lookup", "description": "pls look it up",
                            "parameters": {"type": "object", "properties": {"q": {"type": "string", "description": "pls"}}}}}],
                 "messages": [{"role": "user", "content": "pls find"}, {"role": "assistant", "content": "pls"}]}
                """);
        assertThat(a.status()).as(a.body()).isEqualTo(200);
        JsonNode sent = lastSent(gateway, "up-skills");
        JsonNode messages = sent.path("messages");
        assertThat(messages.get(1).path("content").asText()).isEqualTo("please find");
        assertThat(messages.get(2).path("role").asText()).isEqualTo("assistant");
        assertThat(messages.get(2).path("content").asText()).as("the prefill as sent").isEqualTo("pls");
        assertThat(sent.at("/tools/0/function/description").asText()).isEqualTo("pls look it up");
        assertThat(sent.at("/tools/0/function/parameters/properties/q/description").asText()).isEqualTo("pls");
    }

    @Test
    void useCountCountsExactlyTheBilledRequestsThatAppliedTheSkill() {
        long before = SkillsItSupport.useCount(gateway, "it-counted");
        List<Thread> threads = new ArrayList<>();
        List<Integer> statuses = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < 12; i++) {
            Thread t = Thread.ofPlatform().start(() -> statuses.add(chat("{\"model\": \"oa-chat\", \"skill\": \"it-counted\","
                    + " \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}").status()));
            threads.add(t);
        }
        for (Thread t : threads) {
            try {
                t.join(30_000);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
        assertThat(statuses).hasSize(12).containsOnly(200);
        // not billed: refused before any upstream call, and a token count
        assertThat(chat("{\"model\": \"oa-chat\", \"skills\": [\"it-counted\", \"nope\"], \"messages\": [{\"role\": \"user\","
                + " \"content\": \"hi\"}]}").status()).isEqualTo(400);
        assertThat(new Browser(gateway.baseUrl()).send("POST", "/v1/messages/count_tokens", Optional.of("{\"model\": \"oa-chat\","
                + " \"skill\": \"it-counted\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}"),
                Map.of("x-api-key", gateway.apiKey(), "anthropic-version", "2023-06-01")).status()).isEqualTo(200);

        assertThat(SkillsItSupport.useCountReaching(gateway, "it-counted", before + 12)).isEqualTo(before + 12);
        SkillsItSupport.sleep(2_500); // two write intervals more: nothing else arrives
        assertThat(SkillsItSupport.useCount(gateway, "it-counted")).isEqualTo(before + 12);
    }

    @Test
    void theRequestLogNamesTheSkillsApplied() {
        Logger access = (Logger) LoggerFactory.getLogger("switchboard.access");
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        Level level = access.getLevel();
        access.setLevel(Level.INFO);
        access.addAppender(lines);
        try {
            Answer a = chat("{\"model\": \"oa-chat\", \"skills\": [\"it-reviewer\", \"it-shout\"], \"messages\": [{\"role\": \"user\","
                    + " \"content\": \"hi\"}]}");
            assertThat(a.status()).isEqualTo(200);
            String requestId = a.header("x-request-id").orElseThrow();
            // the line is written once the answer has gone out: wait for it
            java.time.Instant until = java.time.Instant.now().plusSeconds(20);
            Optional<ILoggingEvent> found = Optional.empty();
            while (found.isEmpty() && java.time.Instant.now().isBefore(until)) {
                SkillsItSupport.sleep(20);
                synchronized (lines) {
                    found = List.copyOf(lines.list).stream().filter(e -> value(e, "request_id").equals(requestId)).findFirst();
                }
            }
            ILoggingEvent line = found.orElseThrow(() -> new AssertionError("no access log line for " + requestId));
            assertThat(value(line, "skills")).isEqualTo("it-reviewer,it-shout");
        } finally {
            access.detachAppender(lines);
            access.setLevel(level);
        }
    }

    private static String value(ILoggingEvent e, String key) {
        return e.getKeyValuePairs() == null ? "" : e.getKeyValuePairs().stream().filter(p -> p.key.equals(key))
                .map(p -> String.valueOf(p.value)).findFirst().orElse("");
    }

    @Test
    void allowedParamsSaysHowSkillsAreNamedAndWhichApplyToTheCaller() {
        JsonNode anonymous = new Browser(gateway.baseUrl()).get("/api/models/oa-chat/allowed-params").json();
        assertThat(anonymous.path("allowed_params").toString()).contains("\"skill\"", "\"skills\"");
        assertThat(anonymous.at("/skills/header").asText()).isEqualTo("x-switchboard-skills");
        assertThat(anonymous.at("/skills/max_per_request").asInt()).isEqualTo(8);
        assertThat(anonymous.at("/skills/hint_params").toString()).contains("temperature", "reasoning_effort");
        assertThat(anonymous.at("/skills").has("installed")).isFalse();
        JsonNode strict = new Browser(gateway.baseUrl()).get("/api/models/oa-strict/allowed-params").json();
        assertThat(strict.at("/skills/hint_params").toString()).doesNotContain("temperature", "top_p");

        Browser session = SkillsItSupport.signIn(gateway);
        SkillsItSupport.install(session, "it-installed", List.of("oa-chat"));
        try {
            JsonNode mine = new Browser(gateway.baseUrl()).get("/api/models/oa-chat/allowed-params",
                    Map.of("authorization", "Bearer " + gateway.apiKey())).json();
            assertThat(mine.at("/skills/installed").toString()).isEqualTo("[\"it-installed\"]");
        } finally {
            SkillsItSupport.uninstall(session, "it-installed");
        }
    }

    @Test
    void anotherUsersPrivateSkillIsAsUnknownAsAMissingOneAndTheOwnersApplies() {
        Answer created = SkillsItSupport.admin(gateway, "POST", "/admin/v1/users", "{\"name\": \"owner\", \"password\": \""
                + SkillsItSupport.PASSWORD + "\"}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        Browser owner = new Browser(gateway.baseUrl());
        assertThat(owner.login("owner", SkillsItSupport.PASSWORD).status()).isEqualTo(200);
        Answer skill = owner.post("/v1/skills", "{\"name\": \"Mine\", \"description\": \"d\", \"visibility\": \"private\","
                + " \"body\": {\"system_prompt\": \"Owner only.\"}}");
        assertThat(skill.status()).as(skill.body()).isEqualTo(201);
        String id = skill.json().path("id").asText();

        Answer refused = chat("{\"model\": \"oa-chat\", \"skill\": \"" + id + "\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}");
        Answer unknown = chat("{\"model\": \"oa-chat\", \"skill\": \"skl_nope\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}");
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.errorParam()).isEqualTo("skill");
        assertThat(refused.json().at("/error/message").asText().replace(id, "ID"))
                .isEqualTo(unknown.json().at("/error/message").asText().replace("skl_nope", "ID"));

        Answer unlisted = owner.patch("/v1/skills/" + id, "{\"visibility\": \"unlisted\"}");
        assertThat(unlisted.status()).isEqualTo(200);
        SkillsItSupport.sleep(1_100); // this instance's lookups are reused for a second
        assertThat(chat("{\"model\": \"oa-chat\", \"skill\": \"" + id + "\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}")
                .status()).as("unlisted: anyone with the id").isEqualTo(200);
        assertThat(openAiSystem(lastSent(gateway, "up-skills"))).isEqualTo("Owner only.");
    }

    @Test
    void aModelTakesAtMostEightInstalledSkills() {
        Browser session = SkillsItSupport.signIn(gateway);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            ids.add("it-many-" + i);
            SkillsItSupport.writeSkill(gateway, ids.get(i), "{'system_prompt': 'Many " + i + ".'}");
        }
        try {
            for (int i = 0; i < 7; i++) {
                SkillsItSupport.install(session, ids.get(i), List.of());
            }
            SkillsItSupport.install(session, ids.get(7), List.of("oa-chat"));
            Answer ninth = session.post("/v1/skills/" + ids.get(8) + "/install", "{\"models\": [\"oa-chat\"]}");
            assertThat(ninth.status()).as(ninth.body()).isEqualTo(409);
            assertThat(ninth.errorType()).isEqualTo("limit_reached");
            assertThat(ninth.body()).contains("oa-chat");
            SkillsItSupport.install(session, ids.get(8), List.of("oa-other"));

            assertThat(chat("{\"model\": \"oa-chat\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}").status())
                    .isEqualTo(200);
            assertThat(openAiSystem(lastSent(gateway, "up-skills"))).startsWith("Many 0.").endsWith("Many 7.");
        } finally {
            ids.forEach(id -> SkillsItSupport.uninstall(session, id));
        }
    }

    @Test
    void thePreviewShowsWhatASampleBecomesForASignedInUserWithTheCsrfToken() {
        String body = "{\"body\": {\"system_prompt\": \"Draft.\", \"rules\": [{\"type\": \"replace\", \"find\": \"(?i)\\\\bpls\\\\b\","
                + " \"replace\": \"please\", \"regex\": true}], \"hints\": {\"temperature\": 0.4}}, \"system\": \"Mine.\","
                + " \"message\": \"PLS help\"}";
        assertThat(new Browser(gateway.baseUrl()).post("/v1/skills/preview", body).status()).isEqualTo(401);
        Browser session = SkillsItSupport.signIn(gateway);
        assertThat(session.withoutCsrf().post("/v1/skills/preview", body).status()).isEqualTo(403);

        Answer a = session.withCsrf().post("/v1/skills/preview", body);
        assertThat(a.status()).as(a.body()).isEqualTo(200);
        JsonNode r = a.json();
        assertThat(r.path("skills").toString()).isEqualTo("[\"draft\"]");
        assertThat(r.path("system").toString()).isEqualTo("[\"Draft.\",\"Mine.\"]");
        assertThat(r.path("messages").toString()).isEqualTo("[{\"role\":\"user\",\"content\":\"please help\"}]");
        assertThat(r.at("/hints/temperature").asDouble()).isEqualTo(0.4);

        Answer stacked = session.post("/v1/skills/preview", "{\"skills\": [\"it-reviewer\", \"it-shout\"], \"message\": \"pls\"}");
        assertThat(stacked.json().path("messages").toString()).isEqualTo("[{\"role\":\"user\",\"content\":\"please (loudly)\"}]");
        Answer bad = session.post("/v1/skills/preview", "{\"body\": {\"rules\": [{\"type\": \"replace\", \"find\": \"(\","
                + " \"regex\": true}]}, \"message\": \"x\"}");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.errorParam()).isEqualTo("body.rules[0].find");
        assertThat(gateway.upstream().received()).isEmpty();
    }
}
