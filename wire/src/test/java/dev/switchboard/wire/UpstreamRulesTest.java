package dev.switchboard.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.Message;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.ResponseFormat;
import dev.switchboard.model.Sampling;
import dev.switchboard.model.ToolSpec;
import dev.switchboard.wire.anthropic.Anthropic;
import dev.switchboard.wire.gemini.Gemini;
import dev.switchboard.wire.gemini.GeminiUpstreamOptions;
import dev.switchboard.wire.gemini.GeminiUpstreamOptions.EffortMapping;
import dev.switchboard.wire.internal.JsonSchemas;
import dev.switchboard.wire.openai.OpenAi;
import dev.switchboard.wire.responses.Responses;
import dev.switchboard.wire.responses.ResponsesUpstreamOptions;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * What each upstream format receives for the rules that keep a request faithful and acceptable: no field the
 * caller did not send, schemas in the target's vocabulary, {@code strict} only where it holds, a short
 * {@code user}, Gemini's integer ranges, budgets and empty conversations.
 */
class UpstreamRulesTest {
    private static final String GOOGLE_SCHEMA = """
            {"type": "OBJECT", "properties": {"city": {"type": "STRING"}, "days": {"type": "ARRAY", "items": {"type": "INTEGER"}}},
             "required": ["city"]}""";
    private static final String STRICT_SCHEMA = """
            {"type": "object", "additionalProperties": false, "required": ["a", "b"],
             "properties": {"a": {"type": "string"}, "b": {"type": "object", "additionalProperties": false,
                            "required": ["c"], "properties": {"c": {"type": ["integer", "null"]}}}}}""";
    private static final ResponsesUpstreamOptions RESPONSES = new ResponsesUpstreamOptions(true, true, true);

    private static ChatRequest.Builder ask() {
        return ChatRequest.builder("m").addMessage(Message.user("hi"));
    }

    private static ToolSpec tool(String schema, boolean strict) {
        return new ToolSpec("weather", Optional.empty(), Json.parse(schema.getBytes()), Optional.of(strict), Optional.empty());
    }

    @Test
    void googleUpperCaseTypesAreNormalisedForEveryOtherFormat() {
        ChatRequest r = ask().tools(List.of(tool(GOOGLE_SCHEMA, false)))
                .responseFormat(new ResponseFormat.JsonSchema("out", Optional.empty(), Json.parse(GOOGLE_SCHEMA.getBytes()), false))
                .build();
        JsonNode anthropic = Anthropic.toUpstream(r, "u", false, 1000);
        JsonNode openai = OpenAi.toUpstream(r, "u", false);
        JsonNode responses = Responses.toUpstream(r, "u", false, RESPONSES);

        for (JsonNode schema : List.of(anthropic.at("/tools/0/input_schema"), anthropic.at("/output_config/format/schema"),
                openai.at("/tools/0/function/parameters"), openai.at("/response_format/json_schema/schema"),
                responses.at("/tools/0/parameters"), responses.at("/text/format/schema"))) {
            assertThat(schema.path("type").asText()).isEqualTo("object");
            assertThat(schema.at("/properties/city/type").asText()).isEqualTo("string");
            assertThat(schema.at("/properties/days/items/type").asText()).isEqualTo("integer");
        }
        assertThat(Json.write(openai)).doesNotContain("OBJECT", "STRING", "INTEGER");
    }

    @Test
    void strictStaysOnlyOnSchemasThatStrictModeAccepts() {
        String loose = "{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\"}, \"b\": {\"type\": \"string\"}}, \"required\": [\"a\"]}";
        assertThat(JsonSchemas.qualifiesForStrict(Json.parse(STRICT_SCHEMA.getBytes()))).isTrue();
        assertThat(JsonSchemas.qualifiesForStrict(Json.parse(loose.getBytes()))).isFalse();
        assertThat(JsonSchemas.qualifiesForStrict(Json.parse(
                "{\"type\": \"object\", \"additionalProperties\": false, \"properties\": {\"a\": {\"type\": \"string\"}}}".getBytes())))
                .as("a property missing from required").isFalse();

        ChatRequest qualifies = ask().tools(List.of(tool(STRICT_SCHEMA, true)))
                .responseFormat(new ResponseFormat.JsonSchema("out", Optional.empty(), Json.parse(STRICT_SCHEMA.getBytes()), true)).build();
        ChatRequest fails = ask().tools(List.of(tool(loose, true)))
                .responseFormat(new ResponseFormat.JsonSchema("out", Optional.empty(), Json.parse(loose.getBytes()), true)).build();

        assertThat(OpenAi.toUpstream(qualifies, "u", false).at("/tools/0/function/strict").asBoolean()).isTrue();
        assertThat(OpenAi.toUpstream(qualifies, "u", false).at("/response_format/json_schema/strict").asBoolean()).isTrue();
        assertThat(OpenAi.toUpstream(fails, "u", false).at("/tools/0/function/strict").asBoolean()).isFalse();
        assertThat(OpenAi.toUpstream(fails, "u", false).at("/response_format/json_schema/strict").asBoolean()).isFalse();
        assertThat(Responses.toUpstream(qualifies, "u", false, RESPONSES).at("/tools/0/strict").asBoolean()).isTrue();
        assertThat(Responses.toUpstream(fails, "u", false, RESPONSES).at("/tools/0/strict").asBoolean()).isFalse();
        assertThat(Responses.toUpstream(fails, "u", false, RESPONSES).at("/text/format/strict").asBoolean()).isFalse();
    }

    @Test
    void aLongUserIdBecomesAShortStableHashAndAShortOneStays() {
        String claudeCode = "{\"device_id\":\"6f1c0e9a3b2d4c5e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e\","
                + "\"account_uuid\":\"\",\"session_id\":\"0e9d8c7b-6a5f-4e3d-2c1b-0a9f8e7d6c5b\"}";
        String first = OpenAi.toUpstream(ask().user(Optional.of(claudeCode)).build(), "u", false).path("user").asText();
        String again = OpenAi.toUpstream(ask().user(Optional.of(claudeCode)).build(), "u", false).path("user").asText();

        assertThat(first).matches("u-[0-9a-f]{32}").isEqualTo(again);
        assertThat(Responses.toUpstream(ask().user(Optional.of(claudeCode)).build(), "u", false, RESPONSES).path("user").asText())
                .isEqualTo(first);
        assertThat(OpenAi.toUpstream(ask().user(Optional.of("user-42")).build(), "u", false).path("user").asText()).isEqualTo("user-42");
        assertThat(Anthropic.toUpstream(ask().user(Optional.of(claudeCode)).build(), "u", false, 100).at("/metadata/user_id").asText())
                .as("Anthropic's own field takes the value as the client sent it").isEqualTo(claudeCode);
    }

    @Test
    void anEffortImpliedByABudgetIsNotSentToAnthropic() {
        Reasoning budgetOnly = new Reasoning(Optional.of(Reasoning.Effort.HIGH), Optional.of(Reasoning.Mode.ON), OptionalInt.of(31999),
                Reasoning.Format.SEPARATE, false, Optional.empty(), true);
        Reasoning both = new Reasoning(Optional.of(Reasoning.Effort.HIGH), Optional.of(Reasoning.Mode.ON), OptionalInt.of(31999),
                Reasoning.Format.SEPARATE, false, Optional.empty(), false);

        JsonNode implied = Anthropic.toUpstream(ask().reasoning(budgetOnly).maxTokens(64000).build(), "u", false, 64000);
        JsonNode own = Anthropic.toUpstream(ask().reasoning(both).maxTokens(64000).build(), "u", false, 64000);

        assertThat(implied.has("output_config")).isFalse();
        assertThat(implied.at("/thinking/budget_tokens").asInt()).isEqualTo(31999);
        assertThat(own.at("/output_config/effort").asText()).isEqualTo("high");
        assertThat(OpenAi.toUpstream(ask().reasoning(budgetOnly).build(), "u", false).path("reasoning_effort").asText())
                .as("a levels-only upstream still gets the level the budget implies").isEqualTo("high");
    }

    @Test
    void geminiSeedsStayInsideInt32AndStayDeterministic() {
        Sampling big = new Sampling(Optional.empty(), Optional.empty(), OptionalInt.empty(), Optional.empty(), Optional.empty(),
                OptionalLong.of(9_007_199_254_740_993L));
        Sampling small = new Sampling(Optional.empty(), Optional.empty(), OptionalInt.empty(), Optional.empty(), Optional.empty(),
                OptionalLong.of(-42));
        JsonNode folded = Gemini.toUpstream(ask().sampling(big).build()).at("/generationConfig/seed");

        assertThat(folded.canConvertToInt()).isTrue();
        assertThat(folded.asLong()).isBetween((long) Integer.MIN_VALUE, (long) Integer.MAX_VALUE)
                .isEqualTo(Gemini.toUpstream(ask().sampling(big).build()).at("/generationConfig/seed").asLong());
        assertThat(Gemini.toUpstream(ask().sampling(small).build()).at("/generationConfig/seed").asLong()).isEqualTo(-42);
    }

    @Test
    void anEmptyConversationIsRefusedBeforeItReachesGemini() {
        ChatRequest empty = ChatRequest.builder("m").addMessage(Message.user("")).build();
        assertThatThrownBy(() -> Gemini.toUpstream(empty))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.error().status()).isEqualTo(400);
                    assertThat(e.error().param()).contains("messages");
                });
    }

    @Test
    void geminiBudgetsAreClampedToTheModelsRange() {
        GeminiUpstreamOptions flash = new GeminiUpstreamOptions(EffortMapping.THINKING_BUDGET, OptionalInt.of(1), OptionalInt.of(24576));
        Reasoning max = new Reasoning(Optional.of(Reasoning.Effort.MAX), Optional.of(Reasoning.Mode.ON), OptionalInt.empty(),
                Reasoning.Format.SEPARATE, false, Optional.empty());
        Reasoning budget = new Reasoning(Optional.empty(), Optional.of(Reasoning.Mode.ON), OptionalInt.of(60000),
                Reasoning.Format.SEPARATE, false, Optional.empty());

        assertThat(Gemini.toUpstream(ask().reasoning(max).build(), flash).at("/generationConfig/thinkingConfig/thinkingBudget").asInt())
                .isEqualTo(24576);
        assertThat(Gemini.toUpstream(ask().reasoning(budget).build(), flash).at("/generationConfig/thinkingConfig/thinkingBudget").asInt())
                .isEqualTo(24576);
    }

    @Test
    void hiddenThinkingIsNotAskedToShowItsThoughts() {
        Reasoning offOnAnAlwaysModel = new Reasoning(Optional.of(Reasoning.Effort.MINIMAL), Optional.empty(), OptionalInt.empty(),
                Reasoning.Format.SEPARATE, true, Optional.empty());
        JsonNode thinking = Gemini.toUpstream(ask().reasoning(offOnAnAlwaysModel).build()).at("/generationConfig/thinkingConfig");

        assertThat(thinking.path("thinkingLevel").asText()).isEqualTo("MINIMAL");
        assertThat(thinking.has("includeThoughts")).isFalse();
    }

    @Test
    void aGeminiSignatureOnAToolCallSurvivesAMessagesClientPlainAndStreamed() {
        dev.switchboard.model.Signature sig = new dev.switchboard.model.Signature("gemini", "CiQBsig==");
        dev.switchboard.model.ContentBlock.ToolCall call = new dev.switchboard.model.ContentBlock.ToolCall("call_1", "read_file",
                "{\"path\":\"a\"}", Optional.of(sig));
        dev.switchboard.model.ChatResponse answer = new dev.switchboard.model.ChatResponse("r", "m", List.of(
                dev.switchboard.model.ContentBlock.Thinking.of("Let me look."), call), dev.switchboard.model.StopReason.TOOL_USE,
                Optional.empty(), dev.switchboard.model.Usage.EMPTY);

        JsonNode shown = Anthropic.toClient(answer).path("content");
        assertThat(shown.get(1).path("type").asText()).isEqualTo("thinking");
        assertThat(shown.get(2).path("type").asText()).isEqualTo("tool_use");

        dev.switchboard.wire.anthropic.AnthropicClientStreamWriter writer = new dev.switchboard.wire.anthropic.AnthropicClientStreamWriter();
        String streamed = writer.write(new dev.switchboard.model.StreamEvent.MessageStart("r", "m", dev.switchboard.model.Usage.EMPTY))
                + writer.write(new dev.switchboard.model.StreamEvent.BlockStart(0, call))
                + writer.write(new dev.switchboard.model.StreamEvent.BlockStop(0));
        assertThat(streamed).contains(shown.get(1).path("signature").asText()).contains("\"tool_use\"");

        String next = """
                {"model": "m", "max_tokens": 100, "messages": [{"role": "user", "content": "Read a."},
                  {"role": "assistant", "content": %s},
                  {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_1", "content": "hello"}]}]}"""
                .formatted(Json.write(shown));
        ChatRequest back = Anthropic.fromClient(Json.parse(next.getBytes()));
        JsonNode gemini = Gemini.toUpstream(back);
        JsonNode part = gemini.at("/contents/1/parts/0");
        assertThat(part.has("functionCall")).as(gemini.toString()).isTrue();
        assertThat(part.path("thoughtSignature").asText()).isEqualTo("CiQBsig==");
        assertThat(Json.write(Anthropic.toUpstream(back, "u", false, 100))).as("the carrier is not Anthropic's thinking")
                .doesNotContain("CiQB");
    }

    @Test
    void aGeminiSignatureOnAThoughtSurvivesAMessagesClientAndReachesGeminiOnTheNextTurn() {
        dev.switchboard.model.Signature sig = new dev.switchboard.model.Signature("gemini", "CiQBthought==");
        dev.switchboard.model.ChatResponse answer = new dev.switchboard.model.ChatResponse("r", "m", List.of(
                new dev.switchboard.model.ContentBlock.Thinking("Plan the reply.", Optional.of(sig)),
                dev.switchboard.model.ContentBlock.Text.of("Hello.")), dev.switchboard.model.StopReason.END_TURN,
                Optional.empty(), dev.switchboard.model.Usage.EMPTY);

        JsonNode shown = Anthropic.toClient(answer).path("content");
        assertThat(shown.get(0).path("type").asText()).isEqualTo("thinking");
        assertThat(shown.get(0).path("signature").asText()).as("never the empty signature").isNotEmpty();

        String next = """
                {"model": "m", "max_tokens": 100, "messages": [{"role": "user", "content": "Hi"},
                  {"role": "assistant", "content": %s}, {"role": "user", "content": "And?"}]}""".formatted(Json.write(shown));
        ChatRequest back = Anthropic.fromClient(Json.parse(next.getBytes()));
        JsonNode thought = Gemini.toUpstream(back).at("/contents/1/parts/0");
        assertThat(thought.path("thought").asBoolean()).as(thought.toString()).isTrue();
        assertThat(thought.path("thoughtSignature").asText()).isEqualTo("CiQBthought==");
        assertThat(Json.write(Anthropic.toUpstream(back, "u", false, 100))).as("never sent to Anthropic").doesNotContain("CiQB");
    }
}
