package dev.switchboard.testkit.it.extend;

import static dev.switchboard.testkit.it.extend.SkillsItSupport.lastRequest;
import static dev.switchboard.testkit.it.extend.SkillsItSupport.lastSent;
import static dev.switchboard.testkit.it.extend.SkillsItSupport.openAiLastUser;
import static dev.switchboard.testkit.it.extend.SkillsItSupport.openAiSystem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.errors.BadRequestException;
import com.openai.models.ReasoningEffort;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.it.SdkGateway;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Skills on chat requests with the official OpenAI SDK, chat completions and Responses, judged by what the fake
 * upstream received: a skill's system prompt and rules reach it, stacked skills apply in order, each hint fills
 * an unset parameter and never overrides the caller's, installed skills apply without being named and a named
 * one replaces them, an unknown skill is a 400 in the format's envelope, and the skill fields never reach the
 * upstream.
 */
class SkillsOpenAiIT {
    @RegisterExtension
    static final SdkGateway<OpenAIClient> GATEWAY = SkillsItSupport.gateway(gateway -> OpenAIOkHttpClient.builder()
            .baseUrl(gateway.openAiBaseUrl()).apiKey(gateway.apiKey()).maxRetries(0).timeout(Duration.ofSeconds(15)).build());

    private static ChatCompletionCreateParams.Builder ask(String model, String text) {
        return ChatCompletionCreateParams.builder().model(model).addUserMessage(text);
    }

    /** The request of {@code params} naming {@code skill} in its body. */
    private static ChatCompletionCreateParams withSkill(ChatCompletionCreateParams.Builder params, String skill) {
        return params.putAdditionalBodyProperty("skill", JsonValue.from(skill)).build();
    }

    private static JsonNode sendChat(ChatCompletionCreateParams params, String upstreamModel) {
        GATEWAY.client().chat().completions().create(params);
        return lastSent(GATEWAY.gateway(), upstreamModel);
    }

    @Test
    void aSkillsSystemPromptAndRulesReachTheUpstreamAndItsFieldsDoNot() {
        JsonNode sent = sendChat(withSkill(ask("oa-chat", "pls review this").addSystemMessage("Caller's rules."),
                "it-reviewer"), "up-skills");

        assertThat(openAiSystem(sent)).isEqualTo("You review code.\n\nCaller's rules.");
        assertThat(openAiLastUser(sent)).isEqualTo("please review this");
        assertThat(sent.has("skill")).isFalse();
        assertThat(sent.has("skills")).isFalse();
        assertThat(sent.toString()).doesNotContain("it-reviewer");
    }

    @Test
    void twoStackedSkillsApplyInOrderFromTheBodyAndFromTheHeader() {
        JsonNode sent = sendChat(ask("oa-chat", "pls look").putAdditionalBodyProperty("skills",
                JsonValue.from(List.of("it-reviewer", "it-shout"))).build(), "up-skills");
        assertThat(openAiSystem(sent)).isEqualTo("You review code.\n\nSecond skill.");
        assertThat(openAiLastUser(sent)).isEqualTo("please look (loudly)");

        GATEWAY.client().chat().completions().create(ask("oa-chat", "pls look").putAdditionalHeader("x-switchboard-skills",
                "it-shout, it-reviewer").build());
        RecordedRequest viaHeader = lastRequest(GATEWAY.gateway(), "up-skills");
        assertThat(openAiSystem(viaHeader.json())).isEqualTo("Second skill.\n\nYou review code.");
        assertThat(openAiLastUser(viaHeader.json())).isEqualTo("please look (loudly)");
        assertThat(viaHeader.header("x-switchboard-skills")).as("the header is the gateway's, never forwarded").isEmpty();
    }

    @Test
    void aStreamedAnswerGetsTheSameSkill() {
        try (StreamResponse<ChatCompletionChunk> stream = GATEWAY.client().chat().completions().createStreaming(
                withSkill(ask("oa-chat", "pls stream"), "it-reviewer"))) {
            assertThat(stream.stream().count()).isPositive();
        }
        JsonNode sent = lastSent(GATEWAY.gateway(), "up-skills");
        assertThat(openAiSystem(sent)).isEqualTo("You review code.");
        assertThat(openAiLastUser(sent)).isEqualTo("please stream");
    }

    /**
     * A skill's hint: the field of the upstream body it fills ({@code field} reads it), the value it fills in, and
     * a caller's own value for the field ({@code callerSets} sets it) that it must leave alone.
     */
    record Hint(String skill, Function<JsonNode, Object> field, Object hinted,
            UnaryOperator<ChatCompletionCreateParams.Builder> callerSets, Object callers) {
        @Override
        public String toString() {
            return skill;
        }
    }

    static Stream<Hint> hints() {
        return Stream.of(
                new Hint("it-temperature", sent -> sent.path("temperature").asDouble(), 0.25, b -> b.temperature(1.3), 1.3),
                new Hint("it-top-p", sent -> sent.path("top_p").asDouble(), 0.75, b -> b.topP(0.1), 0.1),
                new Hint("it-max-tokens", SkillsOpenAiIT::maxTokens, 321, b -> b.maxCompletionTokens(77), 77),
                new Hint("it-effort", sent -> sent.path("reasoning_effort").asText(), "high",
                        b -> b.reasoningEffort(ReasoningEffort.LOW), "low"));
    }

    @ParameterizedTest
    @MethodSource("hints")
    void eachHintFillsAnUnsetFieldAndNeverOverridesTheCallersOwn(Hint hint) {
        JsonNode hinted = sendChat(withSkill(ask("oa-chat", "hi"), hint.skill()), "up-skills");
        assertThat(hint.field().apply(hinted)).isEqualTo(hint.hinted());
        JsonNode explicit = sendChat(withSkill(hint.callerSets().apply(ask("oa-chat", "hi")), hint.skill()), "up-skills");
        assertThat(hint.field().apply(explicit)).isEqualTo(hint.callers());
    }

    @Test
    void theTemperatureHintNeverReachesAModelThatRefusesTemperature() {
        JsonNode refused = sendChat(withSkill(ask("oa-strict", "hi"), "it-temperature"), "up-strict");
        assertThat(refused.has("temperature")).as("never onto a model that refuses temperature").isFalse();
    }

    @Test
    void theReasoningEffortHintFillsAnEffortOnlyOnAReasoningModel() {
        JsonNode plain = sendChat(withSkill(ask("oa-plain", "hi"), "it-effort"), "up-plain");
        assertThat(plain.has("reasoning_effort")).as("no supports_reasoning, no effort").isFalse();
    }

    @Test
    void anInstalledSkillAppliesWithoutBeingNamedPerModelAndANamedSkillReplacesIt() {
        Browser session = SkillsItSupport.signIn(GATEWAY.gateway());
        SkillsItSupport.install(session, "it-installed", List.of());
        SkillsItSupport.install(session, "it-installed-too", List.of("oa-other"));
        try {
            assertThat(openAiSystem(sendChat(ask("oa-chat", "hi").build(), "up-skills"))).isEqualTo("Installed skill.");
            assertThat(openAiSystem(sendChat(ask("oa-other", "hi").build(), "up-other")))
                    .isEqualTo("Installed skill.\n\nInstalled for oa-other only.");
            assertThat(openAiSystem(sendChat(ask("oa-chat", "hi").putAdditionalBodyProperty("skill",
                    JsonValue.from("it-shout")).build(), "up-skills"))).isEqualTo("Second skill.");
            String otherKey = GATEWAY.gateway().newKey(List.of(), List.of());
            OpenAIClient second = OpenAIOkHttpClient.builder().baseUrl(GATEWAY.gateway().openAiBaseUrl()).apiKey(otherKey).maxRetries(0)
                    .build();
            second.chat().completions().create(ask("oa-chat", "hi").build());
            assertThat(openAiSystem(lastSent(GATEWAY.gateway(), "up-skills"))).as("any of the user's keys").isEqualTo("Installed skill.");
        } finally {
            SkillsItSupport.uninstall(session, "it-installed");
            SkillsItSupport.uninstall(session, "it-installed-too");
        }
        assertThat(openAiSystem(sendChat(ask("oa-chat", "hi").build(), "up-skills"))).isEmpty();
    }

    @Test
    void anUnknownSkillIsA400NamingTheFieldInTheOpenAiEnvelope() {
        BadRequestException e = assertThrows(BadRequestException.class, () -> GATEWAY.client().chat().completions().create(
                ask("oa-chat", "hi").putAdditionalBodyProperty("skills", JsonValue.from(List.of("it-shout", "no-such-skill"))).build()));
        assertThat(e.statusCode()).isEqualTo(400);
        assertThat(e.param()).contains("skills[1]");
        assertThat(e.getMessage()).contains("no-such-skill");
        assertThat(GATEWAY.gateway().upstream().received()).isEmpty();

        BadRequestException header = assertThrows(BadRequestException.class, () -> GATEWAY.client().chat().completions().create(
                ask("oa-chat", "hi").putAdditionalHeader("x-switchboard-skills", "nope").build()));
        assertThat(header.param()).contains("x-switchboard-skills");
    }

    @Test
    void responsesTakeSkillsAndAChainIsNeverPromptedTwice() {
        Response first = GATEWAY.client().responses().create(ResponseCreateParams.builder().model("oa-chat").input("pls start")
                .instructions("Caller instructions.").putAdditionalBodyProperty("skill", JsonValue.from("it-reviewer")).build());
        JsonNode turn1 = lastSent(GATEWAY.gateway(), "up-skills");
        assertThat(openAiSystem(turn1)).isEqualTo("You review code.\n\nCaller instructions.");
        assertThat(openAiLastUser(turn1)).isEqualTo("please start");

        GATEWAY.client().responses().create(ResponseCreateParams.builder().model("oa-chat").input("pls go on")
                .previousResponseId(first.id()).putAdditionalBodyProperty("skills", JsonValue.from(List.of("it-reviewer"))).build());
        JsonNode turn2 = lastSent(GATEWAY.gateway(), "up-skills");
        assertThat(openAiSystem(turn2)).as("the skill's prompt once, the earlier instructions not inherited")
                .isEqualTo("You review code.");
        assertThat(turn2.toString().split("You review code", -1)).hasSize(2);
        assertThat(userTexts(turn2)).containsExactly("please start", "please go on");

        var items = GATEWAY.client().responses().inputItems().list(first.id());
        assertThat(items.data().toString()).as("stored as the caller sent it").contains("pls start").doesNotContain("please");

        GATEWAY.client().responses().create(ResponseCreateParams.builder().model("oa-chat").input("pls end")
                .previousResponseId(first.id()).build());
        JsonNode turn3 = lastSent(GATEWAY.gateway(), "up-skills");
        assertThat(openAiSystem(turn3)).as("a turn naming no skill gets none").isEmpty();
        assertThat(userTexts(turn3)).containsExactly("pls start", "pls end");
    }

    @Test
    void anUnknownSkillOnResponsesIsA400NamingTheField() {
        BadRequestException e = assertThrows(BadRequestException.class, () -> GATEWAY.client().responses().create(
                ResponseCreateParams.builder().model("oa-chat").input("hi").putAdditionalBodyProperty("skill",
                        JsonValue.from("no-such-skill")).build()));
        assertThat(e.param()).contains("skill");
    }

    private static List<String> userTexts(JsonNode sent) {
        List<String> out = new java.util.ArrayList<>();
        for (JsonNode m : sent.path("messages")) {
            if (m.path("role").asText().equals("user")) {
                out.add(m.path("content").isTextual() ? m.path("content").asText() : m.path("content").path(0).path("text").asText());
            }
        }
        return out;
    }

    private static int maxTokens(JsonNode sent) {
        return sent.has("max_completion_tokens") ? sent.path("max_completion_tokens").asInt() : sent.path("max_tokens").asInt();
    }
}
