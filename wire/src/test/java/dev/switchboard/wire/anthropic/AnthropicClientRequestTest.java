package dev.switchboard.wire.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.ResponseFormat;
import dev.switchboard.model.Role;
import dev.switchboard.wire.Json;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the fixtures do not show: the reader's rules one at a time. */
class AnthropicClientRequestTest {

    private static ChatRequest read(String extra, String messages) {
        return Anthropic.fromClient(Json.parse("{\"model\":\"m\",\"max_tokens\":10," + extra
                + (extra.isEmpty() ? "" : ",") + "\"messages\":" + messages + "}"));
    }

    private static ChatRequest read(String extra) {
        return read(extra, "[{\"role\":\"user\",\"content\":\"q\"}]");
    }

    @Test
    void toolResultsCarryTheNameOfTheCallTheyAnswer() {
        ChatRequest r = read("", "[{\"role\":\"user\",\"content\":\"q\"},"
                + "{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"get_weather\",\"input\":{\"a\":1}}]},"
                + "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_1\"}]}]");

        ContentBlock.ToolCall call = (ContentBlock.ToolCall) r.messages().get(1).content().get(0);
        ContentBlock.ToolResult known = (ContentBlock.ToolResult) r.messages().get(2).content().get(0);
        assertThat(call.argumentsJson()).isEqualTo("{\"a\":1}");
        assertThat(known.name()).hasValue("get_weather");
        assertThat(known.content()).isEmpty();
    }

    @Test
    void aToolResultThatAnswersNoCallIsRefusedAsInEveryFormat() {
        assertThatThrownBy(() -> read("", "[{\"role\":\"user\",\"content\":\"q\"},"
                + "{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"f\",\"input\":{}}]},"
                + "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_1\"},"
                + "{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_unknown\",\"content\":\"x\"}]}]"))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.error().param()).hasValue("messages[2].content[1].tool_use_id");
                    assertThat(e.error().message()).contains("toolu_unknown");
                });
    }

    @Test
    void consecutiveTurnsOfOneRoleAreKeptAsSent() {
        ChatRequest r = read("", "[{\"role\":\"user\",\"content\":\"a\"},{\"role\":\"user\",\"content\":\"b\"},"
                + "{\"role\":\"assistant\",\"content\":\"c\"},{\"role\":\"assistant\",\"content\":\"d\"}]");

        assertThat(r.messages()).extracting(m -> m.role())
                .containsExactly(Role.USER, Role.USER, Role.ASSISTANT, Role.ASSISTANT);
        assertThat(r.endsWithPrefill()).isTrue();
    }

    @Test
    void anEmptySignatureIsNoSignature() {
        ChatRequest r = read("", "[{\"role\":\"user\",\"content\":\"q\"},{\"role\":\"assistant\",\"content\":["
                + "{\"type\":\"thinking\",\"thinking\":\"shown by the gateway\",\"signature\":\"\"},"
                + "{\"type\":\"thinking\",\"thinking\":\"from claude\",\"signature\":\"abc\"}]}]");

        assertThat(r.messages().get(1).content()).containsExactly(
                ContentBlock.Thinking.of("shown by the gateway"),
                new ContentBlock.Thinking("from claude", Optional.of(new dev.switchboard.model.Signature("anthropic", "abc"))));
    }

    @Test
    void serviceFieldsAreConsumedAndUnknownFieldsPassedThrough() {
        ChatRequest r = read("\"transforms\":[\"middle-out\"],\"skill\":\"s1\",\"skills\":[\"s2\"],\"ignore_defaults\":true,"
                + "\"reasoning\":{\"format\":\"inline\",\"exclude\":true},\"inference_geo\":\"eu\",\"null_field\":null,"
                + "\"cache_control\":{\"type\":\"ephemeral\"},\"tool_choice\":{\"type\":\"auto\",\"disable_parallel_tool_use\":false}");

        assertThat(r.transforms()).containsExactly("middle-out");
        assertThat(r.skills()).containsExactly(new dev.switchboard.model.SkillRef("s1", "skill"),
                new dev.switchboard.model.SkillRef("s2", "skills[0]"));
        assertThat(r.ignoreDefaults()).isTrue();
        assertThat(r.reasoning().format()).isEqualTo(Reasoning.Format.INLINE);
        assertThat(r.reasoning().exclude()).isTrue();
        assertThat(r.parallelToolCalls()).hasValue(true);
        assertThat(r.passthrough().format()).isEqualTo("anthropic");
        assertThat(r.passthrough().fields()).containsOnlyKeys("inference_geo", "cache_control");
    }

    @Test
    void thinkingSwitchAsAStringAndStructuredOutput() {
        ChatRequest r = read("\"thinking\":\"off\",\"output_config\":{\"format\":{\"type\":\"json_schema\","
                + "\"schema\":{\"type\":\"object\"}}}");

        assertThat(r.reasoning().mode()).hasValue(Reasoning.Mode.OFF);
        assertThat(r.responseFormat()).isEqualTo(new ResponseFormat.JsonSchema("response", Optional.empty(),
                Json.parse("{\"type\":\"object\"}"), true));
        assertThat(r.passthrough().fields()).isEmpty();
    }

    @Test
    void theTopLevelCacheControlCountsAsABreakpoint() {
        String four = "\"system\":[{\"type\":\"text\",\"text\":\"a\",\"cache_control\":{\"type\":\"ephemeral\"}},"
                + "{\"type\":\"text\",\"text\":\"b\",\"cache_control\":{\"type\":\"ephemeral\"}},"
                + "{\"type\":\"text\",\"text\":\"c\",\"cache_control\":{\"type\":\"ephemeral\"}},"
                + "{\"type\":\"text\",\"text\":\"d\",\"cache_control\":{\"type\":\"ephemeral\"}}]";

        assertThat(read(four).system()).hasSize(4);
        assertThatThrownBy(() -> read(four + ",\"cache_control\":{\"type\":\"ephemeral\"}"))
                .isInstanceOfSatisfying(GatewayException.class,
                        e -> assertThat(e.error().param()).hasValue("cache_control"));
    }

    @Test
    void maxTokensZeroIsRefusedAsInEveryFormat() {
        // a request must mean the same whichever provider answers it, and only Anthropic's API has a use for 0
        // (priming its cache); max_tokens 1 primes it just as well and every upstream takes it
        assertThatThrownBy(() -> Anthropic.fromClient(Json.parse("{\"model\":\"m\",\"max_tokens\":0,\"messages\":"
                + "[{\"role\":\"user\",\"content\":\"q\"}]}")))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.error().param()).hasValue("max_tokens"));
    }

    @Test
    void countTokensBodiesNeedNoMaxTokensButMessagesMustStillHoldAMessage() {
        ChatRequest r = Anthropic.fromClientCountTokens(Json.parse("{\"model\":\"m\",\"system\":\"be brief\","
                + "\"messages\":[{\"role\":\"user\",\"content\":\"q\"}]}"));

        assertThat(r.maxTokens()).isEmpty();
        assertThat(r.system()).hasSize(1);
        assertThatThrownBy(() -> Anthropic.fromClient(Json.parse("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"q\"}]}")))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.error().param()).hasValue("max_tokens"));
        assertThatThrownBy(() -> Anthropic.fromClientCountTokens(Json.parse("{\"model\":\"m\",\"messages\":[]}")))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.error().param()).hasValue("messages"));
    }
}
