package dev.switchboard.wire.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.model.CacheMarker;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.Message;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.Role;
import dev.switchboard.model.Signature;
import dev.switchboard.wire.Json;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Request-reading rules that the fixtures do not show one by one. */
class OpenAiClientRequestReaderTest {

    private static ChatRequest read(String messagesJson) {
        return read(messagesJson, "");
    }

    private static ChatRequest read(String messagesJson, String extra) {
        return OpenAi.fromClient(Json.parse("{\"model\":\"m\",\"messages\":" + messagesJson + extra + "}"));
    }

    @Test
    void toolResultsAreNamedFromTheCallsAndAUserMessageJoinsThemButNotTheReverse() {
        ChatRequest r = read("""
                [{"role":"user","content":"q"},
                 {"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},
                 {"role":"tool","tool_call_id":"c1","content":"r1"},
                 {"role":"tool","tool_call_id":"c1","content":null},
                 {"role":"user","content":"next"},
                 {"role":"tool","tool_call_id":"c1","content":"again"}]""");
        assertThat(r.messages()).hasSize(4);
        Message results = r.messages().get(2);
        assertThat(results.role()).isEqualTo(Role.USER);
        assertThat(results.content()).containsExactly(
                new ContentBlock.ToolResult("c1", Optional.of("f"), List.of(ContentBlock.Text.of("r1")), false,
                        Optional.empty()),
                new ContentBlock.ToolResult("c1", Optional.of("f"), List.of(), false, Optional.empty()),
                ContentBlock.Text.of("next"));
        assertThat(r.messages().get(3).content()).singleElement().isInstanceOf(ContentBlock.ToolResult.class);
    }

    @Test
    void aToolMessageThatAnswersNoCallIsRefusedAsInEveryFormat() {
        assertThatThrownBy(() -> read("""
                [{"role":"user","content":"q"},
                 {"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},
                 {"role":"tool","tool_call_id":"unknown","content":"r"}]"""))
                .isInstanceOfSatisfying(GatewayException.class,
                        e -> assertThat(e.error().param()).hasValue("messages[2].tool_call_id"));
    }

    @Test
    void messageLevelCacheControlMarksTheLastBlock() {
        ChatRequest r = read("""
                [{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}],
                  "cache_control":{"type":"ephemeral","ttl":"1h"}}]""");
        assertThat(r.messages().get(0).content()).containsExactly(ContentBlock.Text.of("a"),
                new ContentBlock.Text("b", Optional.of(CacheMarker.ONE_HOUR), Optional.empty()));
    }

    @Test
    void assistantTurnReadsReasoningThenTextThenCalls() {
        ChatRequest r = read("""
                [{"role":"user","content":"q"},
                 {"role":"assistant","content":"","reasoning_content":"why",
                  "tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":{"a":1}},
                                 "extra_content":{"google":{"thought_signature":"gs"}}}]}]""");
        assertThat(r.messages().get(1).content()).containsExactly(
                ContentBlock.Thinking.of("why"),
                new ContentBlock.ToolCall("c", "f", "{\"a\":1}", Optional.of(new Signature("gemini", "gs"))));
    }

    @Test
    void signatureOnlyReasoningDetailsTakeTheTextOfTheReasoningField() {
        // What a streaming client accumulates from our stream: text in `reasoning`, signature in details.
        ChatRequest r = read("""
                [{"role":"user","content":"q"},
                 {"role":"assistant","content":"a","reasoning":"deep thought",
                  "reasoning_details":[{"type":"reasoning.text","signature":"s","format":"anthropic","index":0}]}]""");
        assertThat(r.messages().get(1).content()).startsWith(
                new ContentBlock.Thinking("deep thought", Optional.of(new Signature("anthropic", "s"))));
    }

    @Test
    void streamedTextFragmentsOfOneDetailEntryAreMerged() {
        ChatRequest r = read("""
                [{"role":"user","content":"q"},
                 {"role":"assistant","content":"a","reasoning_details":[
                   {"type":"reasoning.text","text":"one ","index":0},
                   {"type":"reasoning.text","text":"two","signature":"s1","format":"anthropic","index":0},
                   {"type":"reasoning.text","text":"three","index":1},
                   {"type":"reasoning.summary","summary":"sum"}]}]""");
        assertThat(r.messages().get(1).content()).containsExactly(
                new ContentBlock.Thinking("one two", Optional.of(new Signature("anthropic", "s1"))),
                ContentBlock.Thinking.of("three"),
                ContentBlock.Thinking.of("sum"),
                ContentBlock.Text.of("a"));
    }

    @Test
    void emptyAssistantTextIsDroppedNextToOtherBlocksOnly() {
        ChatRequest r = read("""
                [{"role":"user","content":"q"},
                 {"role":"assistant","content":"","tool_calls":[{"id":"c","type":"function","function":{"name":"f"}}]},
                 {"role":"tool","tool_call_id":"c","content":"r"},
                 {"role":"assistant","content":""}]""");
        assertThat(r.messages().get(1).content()).containsExactly(ContentBlock.ToolCall.of("c", "f", ""));
        assertThat(r.messages().get(3).content()).containsExactly(ContentBlock.Text.of(""));
    }

    @Test
    void refusalPartsAndTheRefusalFieldAreRefusals() {
        ChatRequest r = read("""
                [{"role":"user","content":"q"},{"role":"assistant","content":[{"type":"refusal","refusal":"no"}]},
                 {"role":"assistant","content":null,"refusal":"still no"},
                 {"role":"assistant","content":"partly","refusal":"but no"}]""");
        assertThat(r.messages().get(1).content()).containsExactly(new ContentBlock.Refusal("no"));
        assertThat(r.messages().get(2).content()).containsExactly(new ContentBlock.Refusal("still no"));
        assertThat(r.messages().get(3).content()).containsExactly(ContentBlock.Text.of("partly"),
                new ContentBlock.Refusal("but no"));
    }

    @Test
    void logprobsAreTheCanonicalRequestAndTopLogprobsNeedThem() {
        assertThat(read("[{\"role\":\"user\",\"content\":\"q\"}]", ",\"logprobs\":true,\"top_logprobs\":3").logprobs())
                .hasValue(3);
        assertThat(read("[{\"role\":\"user\",\"content\":\"q\"}]", ",\"logprobs\":true").logprobs()).hasValue(0);
        assertThat(read("[{\"role\":\"user\",\"content\":\"q\"}]", ",\"logprobs\":false").logprobs()).isEmpty();
        assertThat(read("[{\"role\":\"user\",\"content\":\"q\"}]", ",\"logprobs\":true").passthrough().fields())
                .doesNotContainKey("logprobs");
        assertThatThrownBy(() -> read("[{\"role\":\"user\",\"content\":\"q\"}]", ",\"top_logprobs\":2"))
                .isInstanceOf(GatewayException.class).hasMessageContaining("top_logprobs");
        assertThatThrownBy(() -> read("[{\"role\":\"user\",\"content\":\"q\"}]", ",\"logprobs\":true,\"top_logprobs\":21"))
                .isInstanceOf(GatewayException.class).hasMessageContaining("top_logprobs");
    }

    @Test
    void nullMeansNotGivenAndUnknownFieldsPassThrough() {
        ChatRequest r = read("[{\"role\":\"user\",\"content\":\"q\"}]",
                ",\"temperature\":null,\"tools\":null,\"stop\":null,\"logit_bias\":{\"50256\":-100},\"verbosity\":\"low\","
                        + "\"web_search_options\":null");
        assertThat(r.sampling().temperature()).isEmpty();
        assertThat(r.passthrough().format()).isEqualTo("openai");
        assertThat(r.passthrough().fields()).containsOnlyKeys("logit_bias", "verbosity");
    }

    @Test
    void reasoningControlsFollowTheirPrecedence() {
        Reasoning r = read("[{\"role\":\"user\",\"content\":\"q\"}]",
                ",\"thinking\":\"off\",\"thinking_budget\":500,"
                        + "\"reasoning\":{\"effort\":\"low\",\"enabled\":true,\"max_tokens\":9,\"format\":\"inline\","
                        + "\"exclude\":true}").reasoning();
        assertThat(r.mode()).contains(Reasoning.Mode.OFF);
        assertThat(r.budgetTokens()).hasValue(500);
        assertThat(r.effort()).contains(Reasoning.Effort.LOW);
        assertThat(r.format()).isEqualTo(Reasoning.Format.INLINE);
        assertThat(r.exclude()).isTrue();

        Reasoning adaptive = read("[{\"role\":\"user\",\"content\":\"q\"}]",
                ",\"reasoning_effort\":\"xhigh\",\"thinking\":{\"type\":\"adaptive\"},\"reasoning\":{\"effort\":\"low\"}")
                .reasoning();
        assertThat(adaptive.mode()).contains(Reasoning.Mode.AUTO);
        assertThat(adaptive.effort()).contains(Reasoning.Effort.XHIGH);
    }

    @Test
    void maxCompletionTokensWinsOverMaxTokensAndSkillComesBeforeSkills() {
        ChatRequest r = read("[{\"role\":\"user\",\"content\":\"q\"}]",
                ",\"max_tokens\":10,\"max_completion_tokens\":20,\"skill\":\"a\",\"skills\":[\"b\",\"c\"]");
        assertThat(r.maxTokens()).hasValue(20);
        assertThat(r.skills()).containsExactly(new dev.switchboard.model.SkillRef("a", "skill"),
                new dev.switchboard.model.SkillRef("b", "skills[0]"), new dev.switchboard.model.SkillRef("c", "skills[1]"));
    }

    @Test
    void systemMessagesAnywhereBecomeSystemBlocksInOrder() {
        ChatRequest r = read("""
                [{"role":"system","content":"a"},{"role":"user","content":"q"},{"role":"developer","content":"b"}]""");
        assertThat(r.system()).containsExactly(ContentBlock.Text.of("a"), ContentBlock.Text.of("b"));
        assertThat(r.messages()).containsExactly(Message.user("q"));
    }

    @Test
    void prefillIsRecognised() {
        assertThat(read("[{\"role\":\"user\",\"content\":\"q\"},{\"role\":\"assistant\",\"content\":\"{\"}]")
                .endsWithPrefill()).isTrue();
    }
}
