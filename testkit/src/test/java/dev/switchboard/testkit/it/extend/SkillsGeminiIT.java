package dev.switchboard.testkit.it.extend;

import static dev.switchboard.testkit.it.extend.SkillsItSupport.lastRequest;
import static dev.switchboard.testkit.it.extend.SkillsItSupport.lastSent;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.genai.Client;
import com.google.genai.errors.ClientException;
import com.google.genai.types.Content;
import com.google.genai.types.GenerateContentConfig;
import com.google.genai.types.HttpOptions;
import com.google.genai.types.HttpRetryOptions;
import com.google.genai.types.Part;
import com.google.genai.types.ThinkingConfig;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.it.SdkGateway;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Skills on chat requests with the official Google GenAI SDK on the content-parts format, whose body has no room
 * for them: the {@code x-switchboard-skills} header names them. Judged by what the fake Gemini upstream received.
 */
class SkillsGeminiIT {
    @RegisterExtension
    static final SdkGateway<Client> GATEWAY = SkillsItSupport.gateway(gateway -> Client.builder().apiKey(gateway.apiKey())
            .httpOptions(HttpOptions.builder().baseUrl(gateway.baseUrl()).apiVersion("v1beta").timeout(15_000)
                    .retryOptions(HttpRetryOptions.builder().attempts(1).httpStatusCodes(List.of()).build()).build())
            .build());

    /** A config naming {@code skills} in the header, on top of {@code config}. */
    private static GenerateContentConfig.Builder skills(String skills) {
        return GenerateContentConfig.builder().httpOptions(HttpOptions.builder()
                .headers(Map.of("x-switchboard-skills", skills)).build());
    }

    private static JsonNode send(String text, GenerateContentConfig config) {
        GATEWAY.client().models.generateContent("gm-chat", text, config);
        return lastSent(GATEWAY.gateway(), "g-skills");
    }

    private static List<String> system(JsonNode sent) {
        List<String> out = new ArrayList<>();
        sent.path("systemInstruction").path("parts").forEach(p -> out.add(p.path("text").asText()));
        return out;
    }

    private static String lastUserText(JsonNode sent) {
        JsonNode contents = sent.path("contents");
        return contents.get(contents.size() - 1).path("parts").path(0).path("text").asText();
    }

    @Test
    void aSkillsSystemPromptAndRulesReachTheUpstreamAndTheHeaderDoesNot() {
        JsonNode sent = send("pls summarise", skills("it-reviewer")
                .systemInstruction(Content.fromParts(Part.fromText("Caller's instruction."))).build());

        assertThat(system(sent)).containsExactly("You review code.", "Caller's instruction.");
        assertThat(lastUserText(sent)).isEqualTo("please summarise");
        RecordedRequest whole = lastRequest(GATEWAY.gateway(), "g-skills");
        assertThat(whole.header("x-switchboard-skills")).isEmpty();
        assertThat(whole.bodyText()).doesNotContain("it-reviewer");
    }

    @Test
    void twoStackedSkillsApplyInTheHeadersOrder() {
        JsonNode sent = send("pls go", skills("it-shout, it-reviewer").build());
        assertThat(system(sent)).containsExactly("Second skill.", "You review code.");
        assertThat(lastUserText(sent)).isEqualTo("please go (loudly)");
    }

    /**
     * A skill's numeric hint: where in the upstream body it lands ({@code pointer}), the value it fills in, and a
     * caller's own value ({@code callerSets} sets it) that it must leave alone.
     */
    record Hint(String skill, String pointer, double hinted, UnaryOperator<GenerateContentConfig.Builder> callerSets,
            double callers) {
        @Override
        public String toString() {
            return skill;
        }
    }

    static Stream<Hint> hints() {
        return Stream.of(
                new Hint("it-temperature", "/generationConfig/temperature", 0.25, b -> b.temperature(1.5f), 1.5),
                new Hint("it-top-p", "/generationConfig/topP", 0.75, b -> b.topP(0.5f), 0.5),
                new Hint("it-max-tokens", "/generationConfig/maxOutputTokens", 321, b -> b.maxOutputTokens(40), 40));
    }

    @ParameterizedTest
    @MethodSource("hints")
    void eachHintFillsAnUnsetParameterAndNeverOverridesTheCallersOwn(Hint hint) {
        assertThat(send("hi", skills(hint.skill()).build()).at(hint.pointer()).asDouble()).isEqualTo(hint.hinted());
        assertThat(send("hi", hint.callerSets().apply(skills(hint.skill())).build()).at(hint.pointer()).asDouble())
                .isEqualTo(hint.callers());
    }

    @Test
    void theReasoningEffortHintFillsAnUnsetEffortAndNeverOverridesTheCallersThinking() {
        JsonNode hinted = send("hi", skills("it-effort").build());
        assertThat(hinted.at("/generationConfig/thinkingConfig/thinkingLevel").asText()).isEqualToIgnoringCase("high");
        JsonNode off = send("hi", skills("it-effort").thinkingConfig(ThinkingConfig.builder().thinkingBudget(0).build()).build());
        assertThat(off.at("/generationConfig/thinkingConfig/thinkingLevel").isMissingNode()).isTrue();
        assertThat(off.at("/generationConfig/thinkingConfig/thinkingBudget").asInt()).isZero();
    }

    @Test
    void anInstalledSkillAppliesWithoutBeingNamedAndANamedSkillReplacesIt() {
        Browser session = SkillsItSupport.signIn(GATEWAY.gateway());
        SkillsItSupport.install(session, "it-installed", List.of());
        try {
            assertThat(system(send("hi", GenerateContentConfig.builder().build()))).containsExactly("Installed skill.");
            assertThat(system(send("hi", skills("it-shout").build()))).containsExactly("Second skill.");
        } finally {
            SkillsItSupport.uninstall(session, "it-installed");
        }
        assertThat(system(send("hi", GenerateContentConfig.builder().build()))).isEmpty();
    }

    @Test
    void anUnknownSkillIsA400InTheContentPartsEnvelope() {
        ClientException e = assertThrows(ClientException.class,
                () -> GATEWAY.client().models.generateContent("gm-chat", "hi", skills("it-shout,no-such-skill").build()));
        assertThat(e.code()).isEqualTo(400);
        assertThat(e.status()).isEqualTo("INVALID_ARGUMENT");
        assertThat(e.message()).contains("no-such-skill").contains("x-switchboard-skills");
        assertThat(GATEWAY.gateway().upstream().received()).isEmpty();

        Browser.Answer raw = new Browser(GATEWAY.gateway().baseUrl()).send("POST", "/v1beta/models/gm-chat:generateContent",
                java.util.Optional.of("{\"contents\": [{\"role\": \"user\", \"parts\": [{\"text\": \"hi\"}]}]}"),
                Map.of("x-goog-api-key", GATEWAY.gateway().apiKey(), "x-switchboard-skills", "no-such-skill"));
        assertThat(raw.status()).isEqualTo(400);
        assertThat(raw.errorParam()).isEqualTo("x-switchboard-skills");
        assertThat(raw.json().path("error").path("status").asText()).isEqualTo("INVALID_ARGUMENT");
    }
}
