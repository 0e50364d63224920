package dev.switchboard.wire.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.CacheMarker;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.Message;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.ResponseFormat;
import dev.switchboard.model.Role;
import dev.switchboard.model.Sampling;
import dev.switchboard.model.Signature;
import dev.switchboard.model.ToolChoice;
import dev.switchboard.model.ToolSpec;
import dev.switchboard.wire.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Canonical requests as other formats produce them, rendered for an Anthropic upstream. */
class AnthropicUpstreamRequestTest {

    private static ObjectNode upstream(ChatRequest r) {
        return Anthropic.toUpstream(r, "claude-x", false, 4096);
    }

    private static ChatRequest.Builder base() {
        return ChatRequest.builder("m").addMessage(Message.user("hi"));
    }

    private static Reasoning reasoning(Optional<Reasoning.Effort> effort, Optional<Reasoning.Mode> mode, OptionalInt budget) {
        return new Reasoning(effort, mode, budget, Reasoning.Format.SEPARATE, false, Optional.empty());
    }

    @Test
    void historyFromAChatCompletionsClientBecomesValidAnthropicTurns() {
        // assistant with empty text + calls whose ids Anthropic would reject, then one user message per result,
        // the second one with text before its result.
        ChatRequest r = ChatRequest.builder("m")
                .addMessage(Message.user("go"))
                .addMessage(new Message(Role.ASSISTANT, List.of(ContentBlock.Text.of(""),
                        ContentBlock.ToolCall.of("functions.Bash:0", "bash", "{\"cmd\":\"ls\"}"),
                        ContentBlock.ToolCall.of("", "noop", ""),
                        ContentBlock.ToolCall.of("call 3", "bad", "{not json"))))
                .addMessage(new Message(Role.USER, List.of(result("functions.Bash:0", "a.txt"))))
                .addMessage(new Message(Role.USER, List.of(ContentBlock.Text.of("and"), result("", "done"))))
                .addMessage(new Message(Role.USER, List.of(result("call 3", "oops"))))
                .build();

        JsonNode messages = upstream(r).get("messages");

        assertThat(messages).hasSize(3);
        JsonNode calls = messages.get(1).get("content");
        assertThat(calls).hasSize(3).allSatisfy(c -> assertThat(c.get("type").asText()).isEqualTo("tool_use"));
        assertThat(calls.get(0).get("id").asText()).isEqualTo("functions_Bash_0");
        assertThat(calls.get(0).get("input")).isEqualTo(Json.parse("{\"cmd\":\"ls\"}"));
        assertThat(calls.get(1).get("id").asText()).isEqualTo("toolu_empty");
        assertThat(calls.get(1).get("input")).isEqualTo(Json.object());
        assertThat(calls.get(2).get("id").asText()).isEqualTo("call_3");
        assertThat(calls.get(2).get("input")).as("malformed arguments cannot be sent; {} can").isEqualTo(Json.object());

        JsonNode results = messages.get(2).get("content");
        assertThat(results).extracting(b -> b.get("type").asText())
                .containsExactly("tool_result", "tool_result", "tool_result", "text");
        assertThat(results).extracting(b -> b.path("tool_use_id").asText())
                .containsExactly("functions_Bash_0", "toolu_empty", "call_3", "");
        for (JsonNode id : List.of(calls.get(0).get("id"), calls.get(1).get("id"), calls.get(2).get("id"))) {
            assertThat(id.asText()).matches("^[a-zA-Z0-9_-]+$");
        }
    }

    private static ContentBlock.ToolResult result(String id, String text) {
        return new ContentBlock.ToolResult(id, Optional.empty(), List.of(ContentBlock.Text.of(text)), false, Optional.empty());
    }

    @Test
    void onlyAnthropicSignedReasoningAndAnthropicBlocksAreSent() {
        ChatRequest r = base().addMessage(new Message(Role.ASSISTANT, List.of(
                        new ContentBlock.Thinking("gemini thought", Optional.of(new Signature("gemini", "g-sig"))),
                        ContentBlock.Thinking.of("unsigned thought"),
                        new ContentBlock.Thinking("claude thought", Optional.of(new Signature("anthropic", "a-sig"))),
                        new ContentBlock.RedactedThinking("openai-encrypted", "openai"),
                        new ContentBlock.RedactedThinking("claude-redacted", "anthropic"),
                        new ContentBlock.Opaque("gemini", Json.parse("{\"executableCode\":{}}")),
                        new ContentBlock.Opaque("anthropic", Json.parse("{\"type\":\"server_tool_use\",\"id\":\"s\",\"name\":\"web_search\",\"input\":{}}")),
                        new ContentBlock.Text("answer", Optional.empty(), Optional.of(new Signature("gemini", "t-sig"))))))
                .addMessage(Message.user("more"))
                .build();

        JsonNode assistant = upstream(r).at("/messages/1/content");

        assertThat(Json.write(assistant)).isEqualTo("[{\"type\":\"thinking\",\"thinking\":\"claude thought\",\"signature\":\"a-sig\"},"
                + "{\"type\":\"redacted_thinking\",\"data\":\"claude-redacted\"},"
                + "{\"type\":\"server_tool_use\",\"id\":\"s\",\"name\":\"web_search\",\"input\":{}},"
                + "{\"type\":\"text\",\"text\":\"answer\"}]");
    }

    @Test
    void signatureBytesSurviveTheRoundTripExactly() {
        String signature = "EqQBCgIYAhIM+/=\\u00e9==";
        String client = "{\"model\":\"m\",\"max_tokens\":2000,\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":1024},"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"q\"},{\"role\":\"assistant\",\"content\":["
                + "{\"type\":\"thinking\",\"thinking\":\"t\",\"signature\":\"" + signature + "\"},"
                + "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"f\",\"input\":{}}]},"
                + "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_1\",\"content\":\"r\"}]}]}";

        byte[] sent = Json.writeBytes(upstream(Anthropic.fromClient(Json.parse(client))));

        String decoded = Json.parse(client).at("/messages/1/content/0/signature").asText();
        assertThat(Json.parse(sent).at("/messages/1/content/0/signature").asText()).isEqualTo(decoded);
        assertThat(new String(sent, StandardCharsets.UTF_8)).contains("\"signature\":\"EqQBCgIYAhIM+/=é==\"");
    }

    @Test
    void trailingWhitespaceOfAPrefillIsTrimmedAndAWhitespaceOnlyPrefillDropped() {
        ChatRequest trimmed = base().addMessage(Message.assistant("{\"a\": ")).build();
        ChatRequest blank = base().addMessage(Message.assistant("  \n")).build();
        ChatRequest middle = base().addMessage(Message.assistant("keep me ")).addMessage(Message.user("x")).build();

        assertThat(upstream(trimmed).at("/messages/1/content").asText()).isEqualTo("{\"a\":");
        assertThat(upstream(blank).get("messages")).hasSize(1);
        assertThat(upstream(middle).at("/messages/1/content").asText()).isEqualTo("keep me ");
    }

    @Test
    void consecutiveTurnsMergeAndEmptyTurnsDisappear() {
        ChatRequest r = ChatRequest.builder("m")
                .addMessage(Message.user("a"))
                .addMessage(new Message(Role.USER, List.of(new ContentBlock.Text("b", Optional.of(CacheMarker.FIVE_MINUTES), Optional.empty()))))
                .addMessage(new Message(Role.ASSISTANT, List.of(ContentBlock.Thinking.of("foreign only"))))
                .addMessage(Message.user("c"))
                .build();

        JsonNode messages = upstream(r).get("messages");

        assertThat(messages).hasSize(1);
        assertThat(Json.write(messages.get(0))).isEqualTo("{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"a\"},"
                + "{\"type\":\"text\",\"text\":\"b\",\"cache_control\":{\"type\":\"ephemeral\"}},{\"type\":\"text\",\"text\":\"c\"}]}");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
        // case                           | mode | budget | effort  | max  | thinking                                  | max_tokens | output_config
        "budget below minimum             | -    | 500    | -       | 8000 | {\"type\":\"enabled\",\"budget_tokens\":1024} | 8000 | -",
        "budget at max_tokens             | ON   | 9000   | -       | 4000 | {\"type\":\"enabled\",\"budget_tokens\":3999} | 4000 | -",
        "max_tokens leaves no room        | ON   | 2000   | -       | 1024 | -                                          | 1024 | -",
        "no max_tokens: room is made      | ON   | 6000   | -       | -    | {\"type\":\"enabled\",\"budget_tokens\":6000} | 10096 | -",
        "on without budget uses effort    | ON   | -      | HIGH    | 9000 | {\"type\":\"enabled\",\"budget_tokens\":4096} | 9000 | {\"effort\":\"high\"}",
        "on without budget nor effort     | ON   | -      | -       | 9000 | {\"type\":\"enabled\",\"budget_tokens\":2048} | 9000 | -",
        "auto is adaptive                 | AUTO | 3000   | MEDIUM  | 9000 | {\"type\":\"adaptive\"}                     | 9000 | {\"effort\":\"medium\"}",
        "off is disabled                  | OFF  | 3000   | LOW     | 9000 | {\"type\":\"disabled\"}                     | 9000 | {\"effort\":\"low\"}",
        "effort only                      | -    | -      | XHIGH   | 9000 | -                                          | 9000 | {\"effort\":\"xhigh\"}",
        "effort minimal is low            | -    | -      | MINIMAL | 9000 | -                                          | 9000 | {\"effort\":\"low\"}",
        "effort none alone is disabled    | -    | -      | NONE    | 9000 | {\"type\":\"disabled\"}                     | 9000 | -",
        "nothing asked                    | -    | -      | -       | 9000 | -                                          | 9000 | -",
    })
    void reasoningControlsMapToThinking(String name, String mode, Integer budget, String effort, Integer max,
                                        String thinking, int maxTokens, String outputConfig) {
        ChatRequest.Builder b = base().reasoning(reasoning(
                Optional.ofNullable(effort).map(Reasoning.Effort::valueOf),
                Optional.ofNullable(mode).map(Reasoning.Mode::valueOf),
                budget == null ? OptionalInt.empty() : OptionalInt.of(budget)));
        if (max != null) {
            b.maxTokens(max);
        }

        ObjectNode body = upstream(b.build());

        assertThat(body.get("max_tokens").asInt()).isEqualTo(maxTokens);
        assertThat(body.get("thinking")).isEqualTo(thinking == null ? null : Json.parse(thinking));
        assertThat(body.get("output_config")).isEqualTo(outputConfig == null ? null : Json.parse(outputConfig));
        if (body.has("thinking") && body.at("/thinking/type").asText().equals("enabled")) {
            assertThat(body.at("/thinking/budget_tokens").asInt()).isGreaterThanOrEqualTo(1024)
                    .isLessThan(body.get("max_tokens").asInt());
        }
    }

    @Test
    void thinkingOnDropsSamplingOverridesAndForcedToolChoice() {
        ChatRequest r = base()
                .tools(List.of(new ToolSpec("f", Optional.empty(), Json.object(), Optional.empty(), Optional.empty())))
                .toolChoice(new ToolChoice.Named("f"))
                .parallelToolCalls(Optional.of(false))
                .sampling(new Sampling(Optional.of(0.3), Optional.of(0.97), OptionalInt.of(10), Optional.empty(),
                        Optional.empty(), OptionalLong.empty()))
                .reasoning(reasoning(Optional.empty(), Optional.of(Reasoning.Mode.AUTO), OptionalInt.empty()))
                .build();

        ObjectNode body = upstream(r);

        assertThat(body.has("temperature")).isFalse();
        assertThat(body.has("top_k")).isFalse();
        assertThat(body.get("top_p").asDouble()).isEqualTo(0.97);
        assertThat(body.get("tool_choice")).isEqualTo(Json.parse("{\"type\":\"auto\",\"disable_parallel_tool_use\":true}"));
    }

    @Test
    void withoutThinkingTemperatureIsClampedAndChoicesMap() {
        ToolSpec f = new ToolSpec("f", Optional.of("d"), Json.parse("{\"type\":\"object\"}"), Optional.of(true),
                Optional.of(CacheMarker.ONE_HOUR));
        ChatRequest.Builder b = base().tools(List.of(f))
                .sampling(Sampling.DEFAULT.withTemperature(Optional.of(1.7)).withTopP(Optional.of(0.5)));

        ObjectNode named = upstream(b.toolChoice(new ToolChoice.Named("f")).parallelToolCalls(Optional.of(false)).build());
        assertThat(named.get("temperature").asDouble()).isEqualTo(1.0);
        assertThat(named.get("top_p").asDouble()).isEqualTo(0.5);
        assertThat(named.get("tool_choice")).isEqualTo(Json.parse("{\"type\":\"tool\",\"name\":\"f\",\"disable_parallel_tool_use\":true}"));
        assertThat(named.get("tools")).isEqualTo(Json.parse("[{\"name\":\"f\",\"description\":\"d\",\"input_schema\":{\"type\":\"object\"},"
                + "\"strict\":true,\"cache_control\":{\"type\":\"ephemeral\",\"ttl\":\"1h\"}}]"));
        assertThat(upstream(b.toolChoice(ToolChoice.REQUIRED).parallelToolCalls(Optional.empty()).build()).get("tool_choice"))
                .isEqualTo(Json.parse("{\"type\":\"any\"}"));
        assertThat(upstream(b.toolChoice(ToolChoice.NONE).parallelToolCalls(Optional.of(false)).build()).get("tool_choice"))
                .isEqualTo(Json.parse("{\"type\":\"none\"}"));
        assertThat(upstream(b.toolChoice(ToolChoice.AUTO).parallelToolCalls(Optional.of(true)).build()).has("tool_choice")).isFalse();
        assertThat(upstream(base().toolChoice(ToolChoice.REQUIRED).build()).has("tool_choice"))
                .as("no tools, no tool_choice").isFalse();
        assertThat(Anthropic.requiredBetas(b.build())).containsExactly("extended-cache-ttl-2025-04-11");
    }

    @Test
    void requestFieldsOfOtherFormatsAreNotSent() {
        ChatRequest r = base()
                .sampling(new Sampling(Optional.empty(), Optional.empty(), OptionalInt.empty(), Optional.of(0.5),
                        Optional.of(0.5), OptionalLong.of(7)))
                .passthrough(new dev.switchboard.model.Passthrough("openai", java.util.Map.of("logprobs", Json.parse("true"))))
                .stream(true)
                .build();

        ObjectNode body = Anthropic.toUpstream(r, "claude-x", true, 333);

        assertThat(Json.write(body)).isEqualTo("{\"model\":\"claude-x\",\"max_tokens\":333,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"stream\":true}");
    }

    @Test
    void logprobsHaveNoPlaceInTheMessagesFormatAndAreNamedAsNotCarried() {
        ChatRequest r = base().logprobs(OptionalInt.of(2)).build();

        assertThat(Anthropic.toUpstream(r, "claude-x", false, 333).toString()).doesNotContain("logprob");
        assertThat(Anthropic.notCarried(r)).containsExactly("logprobs");
        assertThat(Anthropic.notCarried(base().build())).isEmpty();
    }

    @Test
    void aSchemaLessJsonModeBecomesStructuredOutputForAnyObject() {
        ObjectNode body = Anthropic.toUpstream(base().responseFormat(ResponseFormat.JSON_OBJECT).build(), "claude-x", false, 333);

        assertThat(Json.write(body.path("output_config")))
                .isEqualTo("{\"format\":{\"type\":\"json_schema\",\"schema\":{\"type\":\"object\"}}}");
    }

    @Test
    void betasAreNeededOnlyForOneHourMarkers() {
        ContentBlock nested = new ContentBlock.ToolResult("t", Optional.empty(),
                List.of(new ContentBlock.Text("x", Optional.of(CacheMarker.ONE_HOUR), Optional.empty())), false, Optional.empty());
        ChatRequest fiveMinutes = base().system(List.of(new ContentBlock.Text("s", Optional.of(CacheMarker.FIVE_MINUTES),
                Optional.empty()))).build();

        assertThat(Anthropic.requiredBetas(fiveMinutes)).isEmpty();
        assertThat(Anthropic.requiredBetas(base().addMessage(new Message(Role.USER, List.of(nested))).build()))
                .containsExactly("extended-cache-ttl-2025-04-11");
        assertThat(Anthropic.requiredBetas(Anthropic.fromClient(Json.parse("{\"model\":\"m\",\"max_tokens\":1,"
                + "\"cache_control\":{\"type\":\"ephemeral\",\"ttl\":\"1h\"},\"messages\":[{\"role\":\"user\",\"content\":\"q\"}]}"))))
                .containsExactly("extended-cache-ttl-2025-04-11");
    }

    private static ChatRequest toolLoop(ContentBlock trace) {
        return ChatRequest.builder("m").addMessage(Message.user("weather?"))
                .addMessage(new Message(Role.ASSISTANT, List.of(trace, ContentBlock.ToolCall.of("call_1", "get_weather", "{}"))))
                .addMessage(new Message(Role.USER, List.of(result("call_1", "4C"))))
                .reasoning(reasoning(Optional.of(Reasoning.Effort.LOW), Optional.of(Reasoning.Mode.ON), OptionalInt.empty()))
                .build();
    }

    @Test
    void aToolLoopWhoseTurnAnotherProviderReasonedGoesWithoutThinkingWhichAnthropicWouldRefuse() {
        ObjectNode foreign = upstream(toolLoop(new ContentBlock.Thinking("t", Optional.of(new Signature("responses", "enc")))));
        assertThat(foreign.has("thinking")).isFalse();
        assertThat(foreign.get("messages").get(1).get("content").get(0).get("type").asText()).isEqualTo("tool_use");

        ObjectNode own = upstream(toolLoop(new ContentBlock.Thinking("t", Optional.of(new Signature("anthropic", "sig")))));
        assertThat(own.path("thinking").path("type").asText()).isEqualTo("enabled");
        assertThat(own.get("messages").get(1).get("content").get(0).get("type").asText()).isEqualTo("thinking");

        ObjectNode afterTheLoop = upstream(toolLoop(ContentBlock.Thinking.of("unsigned")).toBuilder()
                .addMessage(Message.assistant("It is 4C.")).addMessage(Message.user("thanks")).build());
        assertThat(afterTheLoop.path("thinking").path("type").asText()).as("only the open loop needs its thinking")
                .isEqualTo("enabled");
    }
}
