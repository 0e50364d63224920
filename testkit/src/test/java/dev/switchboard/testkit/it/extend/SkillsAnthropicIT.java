package dev.switchboard.testkit.it.extend;

import static dev.switchboard.testkit.it.extend.SkillsItSupport.lastRequest;
import static dev.switchboard.testkit.it.extend.SkillsItSupport.lastSent;
import static dev.switchboard.testkit.it.extend.SkillsItSupport.openAiLastUser;
import static dev.switchboard.testkit.it.extend.SkillsItSupport.openAiSystem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.JsonValue;
import com.anthropic.errors.BadRequestException;
import com.anthropic.models.messages.CacheControlEphemeral;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCountTokensParams;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.TextBlockParam;
import com.anthropic.models.messages.ThinkingConfigDisabled;
import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.it.SdkGateway;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Skills on chat requests with the official Anthropic SDK on the messages format, judged by what the fake
 * upstream received (an Anthropic-format upstream, and an OpenAI-format one): system prompt first with the
 * caller's cache markers kept valid, rules, stacking, hints one by one, installed skills, the 400 in the
 * format's envelope, and {@code count_tokens} seeing the skill's prompt.
 */
class SkillsAnthropicIT {
    @RegisterExtension
    static final SdkGateway<AnthropicClient> GATEWAY = SkillsItSupport.gateway(gateway -> AnthropicOkHttpClient.builder()
            .baseUrl(gateway.baseUrl()).apiKey(gateway.apiKey()).maxRetries(0).timeout(Duration.ofSeconds(15)).build());
    private static final CacheControlEphemeral FIVE_MINUTES = CacheControlEphemeral.builder().build();

    private static MessageCreateParams.Builder ask(String model, String text) {
        return MessageCreateParams.builder().model(model).maxTokens(200).addUserMessage(text);
    }

    private static JsonNode send(MessageCreateParams params) {
        GATEWAY.client().messages().create(params);
        return lastSent(GATEWAY.gateway(), "c-skills");
    }

    private static MessageCreateParams.Builder withSkill(MessageCreateParams.Builder b, String skill) {
        return b.putAdditionalBodyProperty("skill", JsonValue.from(skill));
    }

    /** The system blocks an Anthropic-format upstream received (a plain string is one block). */
    private static List<JsonNode> system(JsonNode sent) {
        JsonNode s = sent.path("system");
        List<JsonNode> out = new ArrayList<>();
        if (s.isTextual()) {
            out.add(com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode().put("type", "text")
                    .put("text", s.asText()));
        } else {
            s.forEach(out::add);
        }
        return out;
    }

    private static String lastUserText(JsonNode sent) {
        JsonNode last = sent.path("messages").get(sent.path("messages").size() - 1);
        JsonNode content = last.path("content");
        return content.isTextual() ? content.asText() : content.path(0).path("text").asText();
    }

    @Test
    void aSkillsPromptComesFirstAndTheCallersCacheMarkerStaysValid() {
        String caller = "You are the reference librarian of a large city library. Answer in one sentence.";
        MessageCreateParams params = withSkill(MessageCreateParams.builder().model("an-chat").maxTokens(200)
                .systemOfTextBlockParams(List.of(TextBlockParam.builder().text(caller).cacheControl(FIVE_MINUTES).build()))
                .addUserMessage("pls where are the atlases?"), "it-reviewer").build();

        Message first = GATEWAY.client().messages().create(params);
        JsonNode sent = lastSent(GATEWAY.gateway(), "c-skills");
        List<JsonNode> system = system(sent);
        assertThat(system).hasSize(2);
        assertThat(system.get(0).path("text").asText()).isEqualTo("You review code.");
        assertThat(system.get(0).has("cache_control")).isFalse();
        assertThat(system.get(1).path("text").asText()).isEqualTo(caller);
        assertThat(system.get(1).path("cache_control").path("type").asText()).isEqualTo("ephemeral");
        assertThat(lastUserText(sent)).isEqualTo("please where are the atlases?");

        Message second = GATEWAY.client().messages().create(params);
        assertThat(first.usage().cacheCreationInputTokens()).hasValueSatisfying(n -> assertThat(n).isPositive());
        assertThat(second.usage().cacheReadInputTokens()).as("the same prefix, skill included, is read from the cache")
                .hasValueSatisfying(n -> assertThat(n).isPositive());
    }

    @Test
    void twoStackedSkillsApplyInOrderAndTheFieldsNeverReachTheUpstream() {
        JsonNode sent = send(ask("an-chat", "pls check").putAdditionalBodyProperty("skills",
                JsonValue.from(List.of("it-reviewer", "it-shout"))).build());
        assertThat(system(sent)).extracting(b -> b.path("text").asText()).containsExactly("You review code.", "Second skill.");
        assertThat(lastUserText(sent)).isEqualTo("please check (loudly)");
        assertThat(sent.has("skill")).isFalse();
        assertThat(sent.has("skills")).isFalse();

        GATEWAY.client().messages().create(ask("an-chat", "pls check").putAdditionalHeader("x-switchboard-skills", "it-shout,it-reviewer")
                .build());
        RecordedRequest viaHeader = lastRequest(GATEWAY.gateway(), "c-skills");
        assertThat(system(viaHeader.json())).extracting(b -> b.path("text").asText())
                .containsExactly("Second skill.", "You review code.");
        assertThat(viaHeader.header("x-switchboard-skills")).isEmpty();
    }

    @Test
    void aMessagesClientGetsTheSameSkillOnAnOpenAiFormatUpstream() {
        GATEWAY.client().messages().create(withSkill(ask("oa-chat", "pls translate").system("Caller."), "it-reviewer").build());
        JsonNode sent = lastSent(GATEWAY.gateway(), "up-skills");
        assertThat(openAiSystem(sent)).isEqualTo("You review code.\n\nCaller.");
        assertThat(openAiLastUser(sent)).isEqualTo("please translate");
    }

    @Test
    void theTemperatureHintFillsAnUnsetTemperatureAndNeverOverridesOne() {
        assertThat(send(withSkill(ask("an-chat", "hi"), "it-temperature").build()).path("temperature").asDouble()).isEqualTo(0.25);
        assertThat(send(withSkill(ask("an-chat", "hi").putAdditionalBodyProperty("temperature", JsonValue.from(0.9)), "it-temperature").build()).path("temperature").asDouble())
                .isEqualTo(0.9);
    }

    @Test
    void theTopPHintFillsAnUnsetTopPAndNeverOverridesOne() {
        assertThat(send(withSkill(ask("an-chat", "hi"), "it-top-p").build()).path("top_p").asDouble()).isEqualTo(0.75);
        assertThat(send(withSkill(ask("an-chat", "hi").putAdditionalBodyProperty("top_p", JsonValue.from(0.2)), "it-top-p").build()).path("top_p").asDouble()).isEqualTo(0.2);
    }

    @Test
    void theMaxTokensHintNeverOverridesTheLimitAMessagesRequestAlwaysSets() {
        // max_tokens is required on the messages format, so the caller's value is always there and always wins
        assertThat(send(withSkill(ask("an-chat", "hi"), "it-max-tokens").build()).path("max_tokens").asInt()).isEqualTo(200);
        GATEWAY.client().messages().create(withSkill(ask("oa-chat", "hi").maxTokens(55), "it-max-tokens").build());
        assertThat(lastSent(GATEWAY.gateway(), "up-skills").path("max_completion_tokens").asInt()).as("OpenAI's name, the default flavour").isEqualTo(55);
    }

    @Test
    void theReasoningEffortHintFillsAnUnsetEffortAndNeverOverridesTheCallersThinking() {
        JsonNode hinted = send(withSkill(ask("an-chat", "hi"), "it-effort").build());
        assertThat(hinted.path("output_config").path("effort").asText()).isEqualTo("high");

        JsonNode off = send(withSkill(ask("an-chat", "hi").thinking(ThinkingConfigDisabled.builder().build()), "it-effort").build());
        assertThat(off.path("output_config").has("effort")).as("thinking off stays off").isFalse();
        assertThat(off.path("thinking").path("type").asText()).isEqualTo("disabled");
    }

    @Test
    void anInstalledSkillAppliesWithoutBeingNamedAndANamedSkillReplacesIt() {
        Browser session = SkillsItSupport.signIn(GATEWAY.gateway());
        SkillsItSupport.install(session, "it-installed", List.of("an-chat"));
        try {
            assertThat(system(send(ask("an-chat", "hi").build()))).extracting(b -> b.path("text").asText())
                    .containsExactly("Installed skill.");
            assertThat(system(send(withSkill(ask("an-chat", "hi"), "it-shout").build()))).extracting(b -> b.path("text").asText())
                    .containsExactly("Second skill.");
        } finally {
            SkillsItSupport.uninstall(session, "it-installed");
        }
        assertThat(send(ask("an-chat", "hi").build()).has("system")).isFalse();
    }

    @Test
    void anUnknownSkillIsA400NamingTheFieldInTheMessagesEnvelope() {
        BadRequestException e = assertThrows(BadRequestException.class, () -> GATEWAY.client().messages().create(
                ask("an-chat", "hi").putAdditionalBodyProperty("skills", JsonValue.from(List.of("no-such-skill"))).build()));
        JsonNode body = e.body().convert(JsonNode.class);
        assertThat(body.path("type").asText()).isEqualTo("error");
        assertThat(body.path("error").path("param").asText()).isEqualTo("skills[0]");
        assertThat(body.path("error").path("code").asText()).isEqualTo("400");
        assertThat(body.path("error").path("message").asText()).contains("no-such-skill");
        assertThat(GATEWAY.gateway().upstream().received()).isEmpty();
    }

    @Test
    void countTokensSeesTheSkillsSystemPrompt() {
        MessageCountTokensParams plain = MessageCountTokensParams.builder().model("an-chat").addUserMessage("abcd").build();
        long without = GATEWAY.client().messages().countTokens(plain).inputTokens();
        long with = GATEWAY.client().messages().countTokens(plain.toBuilder().putAdditionalBodyProperty("skill",
                JsonValue.from("it-reviewer")).build()).inputTokens();
        assertThat(with - without).as("\"You review code.\" is 16 characters, 4 tokens").isEqualTo(4);
        assertThat(GATEWAY.gateway().upstream().received()).isEmpty();
    }
}
