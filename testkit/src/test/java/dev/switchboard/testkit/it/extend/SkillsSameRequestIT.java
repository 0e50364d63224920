package dev.switchboard.testkit.it.extend;

import static dev.switchboard.testkit.it.extend.SkillsItSupport.lastSent;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.testkit.GatewayExtension;
import dev.switchboard.testkit.TestGateway;
import dev.switchboard.testkit.it.extend.Browser.Answer;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The same request with the same skills, sent in each of the four client formats, reaches the upstream as the
 * same request: skills act on the canonical request, never on a format. Each format's test compares what the
 * upstream received with what it received for the chat-completions request.
 */
class SkillsSameRequestIT {
    @RegisterExtension
    static final GatewayExtension GATEWAY = new GatewayExtension(SkillsItSupport.CONFIG);
    private static final String SKILLS = "[\"it-reviewer\", \"it-shout\", \"it-temperature\", \"it-effort\"]";
    private static final String SKILLS_HEADER = "it-reviewer, it-shout, it-temperature, it-effort";

    private static TestGateway gateway;

    @BeforeAll
    static void setUp() {
        gateway = GATEWAY.gateway();
        SkillsItSupport.writeSkills(gateway);
    }

    private static JsonNode post(String path, String body, Map<String, String> headers) {
        Answer a = new Browser(gateway.baseUrl()).send("POST", path, Optional.of(body), headers);
        assertThat(a.status()).as(a.body()).isEqualTo(200);
        return lastSent(gateway, "up-skills");
    }

    private static JsonNode viaChatCompletions() {
        return post("/v1/chat/completions", """
                {"model": "oa-chat", "max_tokens": 100, "skills": %s,
                 "messages": [{"role": "system", "content": "Caller."}, {"role": "user", "content": "pls compare"}]}
                """.formatted(SKILLS), Map.of("authorization", "Bearer " + gateway.apiKey()));
    }

    private static void assertSameAsChatCompletions(JsonNode sent) {
        JsonNode reference = viaChatCompletions();
        assertThat(SkillsItSupport.openAiSystem(reference)).isEqualTo("You review code.\n\nSecond skill.\n\nCaller.");
        assertThat(SkillsItSupport.openAiLastUser(reference)).isEqualTo("please compare (loudly)");
        assertThat(reference.path("temperature").asDouble()).isEqualTo(0.25);
        assertThat(reference.path("reasoning_effort").asText()).isEqualTo("high");
        assertThat(sent).isEqualTo(reference);
    }

    @Test
    void theMessagesFormatSendsTheSameRequest() {
        assertSameAsChatCompletions(post("/v1/messages", """
                {"model": "oa-chat", "max_tokens": 100, "skills": %s, "system": "Caller.",
                 "messages": [{"role": "user", "content": "pls compare"}]}
                """.formatted(SKILLS), Map.of("x-api-key", gateway.apiKey(), "anthropic-version", "2023-06-01")));
    }

    @Test
    void theContentPartsFormatSendsTheSameRequestWithTheHeader() {
        assertSameAsChatCompletions(post("/v1beta/models/oa-chat:generateContent", """
                {"systemInstruction": {"parts": [{"text": "Caller."}]},
                 "contents": [{"role": "user", "parts": [{"text": "pls compare"}]}],
                 "generationConfig": {"maxOutputTokens": 100}}
                """, Map.of("x-goog-api-key", gateway.apiKey(), "x-switchboard-skills", SKILLS_HEADER)));
    }

    @Test
    void theResponsesFormatSendsTheSameRequest() {
        assertSameAsChatCompletions(post("/v1/responses", """
                {"model": "oa-chat", "max_output_tokens": 100, "skills": %s, "instructions": "Caller.",
                 "input": "pls compare", "store": false}
                """.formatted(SKILLS), Map.of("authorization", "Bearer " + gateway.apiKey())));
    }

    @Test
    void theChatCompletionsFormatSendsTheSameRequestWithTheHeader() {
        assertSameAsChatCompletions(post("/v1/chat/completions", """
                {"model": "oa-chat", "max_tokens": 100,
                 "messages": [{"role": "system", "content": "Caller."}, {"role": "user", "content": "pls compare"}]}
                """, Map.of("authorization", "Bearer " + gateway.apiKey(), "x-switchboard-skills", SKILLS_HEADER)));
    }
}
