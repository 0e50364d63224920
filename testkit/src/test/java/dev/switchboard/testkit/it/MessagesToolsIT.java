package dev.switchboard.testkit.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.anthropic.client.AnthropicClient;
import com.anthropic.models.messages.ContentBlock;
import com.anthropic.models.messages.ContentBlockParam;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.anthropic.models.messages.StopReason;
import com.anthropic.models.messages.TextBlockParam;
import com.anthropic.models.messages.ToolResultBlockParam;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.testkit.RecordedRequest;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Tools and thinking through {@code POST /v1/messages}, judged by the official Anthropic Java SDK: tool ids kept
 * from either upstream kind, streamed block indexes counted over all blocks, tool loops closed through both
 * upstream kinds, and signed thinking (and redacted thinking) reaching an Anthropic upstream byte for byte as
 * it issued them.
 */
class MessagesToolsIT {
    @RegisterExtension
    static final SdkGateway<AnthropicClient> GATEWAY = MessagesItSupport.anthropicGateway();

    private static final String RESULT = "31°C, sunny";

    private static MessageCreateParams weather(String model) {
        return MessageCreateParams.builder().model(model).maxTokens(2048)
                .addUserMessage("What is the weather in Paris?")
                .addTool(MessagesItSupport.tool("get_weather", "city"))
                .build();
    }

    private static MessageCreateParams thinkingWeather(String model) {
        return weather(model).toBuilder().enabledThinking(1024).build();
    }

    /** The conversation continued with {@code answer} and a result for each of its tool calls. */
    private static MessageCreateParams withResults(MessageCreateParams first, Message answer) {
        List<ContentBlockParam> results = answer.content().stream().filter(ContentBlock::isToolUse)
                .map(b -> ContentBlockParam.ofToolResult(ToolResultBlockParam.builder()
                        .toolUseId(b.asToolUse().id()).content(RESULT).build()))
                .toList();
        return first.toBuilder().addMessage(answer).addUserMessageOfContentBlockParams(results).build();
    }

    private static List<ContentBlock> toolUses(Message message) {
        return message.content().stream().filter(ContentBlock::isToolUse).toList();
    }

    /** The block indexes of the stream's content_block_start events, in order. */
    private static List<Long> startIndexes(List<RawMessageStreamEvent> events) {
        return events.stream().filter(RawMessageStreamEvent::isContentBlockStart)
                .map(e -> e.asContentBlockStart().index()).toList();
    }

    /** The JSON of every thinking and redacted-thinking block the client got, as the SDK read them. */
    private static List<JsonNode> reasoningBlocks(Message message) {
        return message.content().stream().filter(b -> b.isThinking() || b.isRedactedThinking())
                .map(b -> b.isThinking()
                        ? (JsonNode) ItSupport.JSON.createObjectNode().put("type", "thinking")
                                .put("thinking", b.asThinking().thinking()).put("signature", b.asThinking().signature())
                        : ItSupport.JSON.createObjectNode().put("type", "redacted_thinking").put("data", b.asRedactedThinking().data()))
                .toList();
    }

    @Test
    void toolUseFromAnAnthropicUpstreamKeepsItsIdAndInput() {
        Message message = GATEWAY.client().messages().create(weather("claude-chat"));

        assertThat(message.stopReason()).contains(StopReason.TOOL_USE);
        assertThat(MessagesItSupport.types(message)).containsExactly("tool_use");
        ContentBlock call = message.content().getFirst();
        assertThat(call.asToolUse().id()).startsWith("toolu_fake_");
        assertThat(call.asToolUse().name()).isEqualTo("get_weather");
        assertThat(MessagesItSupport.input(call).path("city").asText()).isEqualTo("Paris");
        JsonNode tool = GATEWAY.gateway().upstream().received("up-claude").getFirst().json().path("tools").get(0);
        assertThat(tool.path("name").asText()).isEqualTo("get_weather");
        assertThat(tool.path("input_schema").path("required").get(0).asText()).isEqualTo("city");
    }

    @Test
    void toolUseFromAnOpenAiUpstreamKeepsTheCallIdAndParsesTheArguments() {
        Message message = GATEWAY.client().messages().create(weather("gpt-chat"));

        assertThat(message.stopReason()).contains(StopReason.TOOL_USE);
        ContentBlock call = toolUses(message).getFirst();
        assertThat(call.asToolUse().id()).startsWith("call_");
        assertThat(MessagesItSupport.input(call).path("city").asText()).isEqualTo("Paris");
        JsonNode sent = GATEWAY.gateway().upstream().received("up-gpt").getFirst().json();
        assertThat(sent.path("tools").get(0).path("function").path("name").asText()).isEqualTo("get_weather");
    }

    /**
     * Asks {@code model} for the weather and the time, streamed, and checks the answer is a thinking block then
     * two calls, indexed over all three blocks.
     */
    private static Message streamedParallelCallsAfterThinking(String model) {
        List<RawMessageStreamEvent> events = MessagesItSupport.stream(GATEWAY.client(), weather(model).toBuilder()
                .addTool(MessagesItSupport.tool("get_time", "timezone")).build());

        assertThat(startIndexes(events)).containsExactly(0L, 1L, 2L);
        Message message = MessagesItSupport.accumulate(events);
        assertThat(MessagesItSupport.types(message)).containsExactly("thinking", "tool_use", "tool_use");
        return message;
    }

    @Test
    void streamedParallelCallsAfterReasoningFromAnOpenAiUpstreamGetBlockIndexesOverAllBlocks() {
        Message message = streamedParallelCallsAfterThinking("gpt-parallel");
        List<ContentBlock> calls = toolUses(message);
        assertThat(calls.get(0).asToolUse().name()).isEqualTo("get_weather");
        assertThat(MessagesItSupport.input(calls.get(0)).path("city").asText()).isEqualTo("Paris");
        assertThat(MessagesItSupport.input(calls.get(0)).has("timezone")).isFalse();
        assertThat(calls.get(1).asToolUse().name()).isEqualTo("get_time");
        assertThat(MessagesItSupport.input(calls.get(1)).path("timezone").asText()).isEqualTo("Paris");
        assertThat(calls.get(0).asToolUse().id()).startsWith("call_").isNotEqualTo(calls.get(1).asToolUse().id());
        assertThat(message.stopReason()).contains(StopReason.TOOL_USE);
    }

    @Test
    void streamedParallelCallsAfterSignedThinkingFromAnAnthropicUpstreamKeepTheirIdsAndTheSignature() {
        Message message = streamedParallelCallsAfterThinking("claude-parallel");
        assertThat(message.content().getFirst().asThinking().signature()).startsWith("fakesig.");
        List<ContentBlock> calls = toolUses(message);
        assertThat(calls).extracting(c -> c.asToolUse().id()).allMatch(id -> id.startsWith("toolu_fake_")).doesNotHaveDuplicates();
        assertThat(MessagesItSupport.input(calls.get(1)).path("timezone").asText()).isEqualTo("Paris");
    }

    @Test
    void aThinkingToolLoopReachesTheAnthropicUpstreamByteIdenticalInItsThinkingBlocks() {
        thinkingToolLoop(false);
    }

    @Test
    void aStreamedThinkingToolLoopReachesTheAnthropicUpstreamByteIdenticalInItsThinkingBlocks() {
        thinkingToolLoop(true);
    }

    private void thinkingToolLoop(boolean stream) {
        MessageCreateParams first = thinkingWeather("claude-chat");
        Message call = stream ? MessagesItSupport.accumulate(MessagesItSupport.stream(GATEWAY.client(), first)) : GATEWAY.client().messages().create(first);
        assertThat(MessagesItSupport.types(call)).containsExactly("thinking", "tool_use");
        String signature = call.content().getFirst().asThinking().signature();
        assertThat(signature).startsWith("fakesig.");
        RecordedRequest issued = GATEWAY.gateway().upstream().received("up-claude").getFirst();
        assertThat(issued.json().path("thinking").path("budget_tokens").asInt()).isEqualTo(1024);
        GATEWAY.gateway().upstream().reset();

        Message answer = GATEWAY.client().messages().create(withResults(first, call));

        assertThat(MessagesItSupport.text(answer)).isEqualTo("Tool result received: " + RESULT);
        RecordedRequest sent = GATEWAY.gateway().upstream().received("up-claude").getFirst();
        JsonNode messages = sent.json().path("messages");
        assertThat(messages).hasSize(3);
        JsonNode assistant = messages.get(1).path("content");
        assertThat(assistant.get(0)).isEqualTo(reasoningBlocks(call).getFirst());
        // byte for byte: the signature's exact JSON text is in the body the upstream received
        assertThat(sent.bodyText()).contains("\"signature\":\"" + signature + "\"");
        assertThat(assistant.get(1).path("id").asText()).isEqualTo(call.content().get(1).asToolUse().id());
        JsonNode result = messages.get(2).path("content").get(0);
        assertThat(result.path("type").asText()).isEqualTo("tool_result");
        assertThat(result.path("tool_use_id").asText()).isEqualTo(call.content().get(1).asToolUse().id());
    }

    @Test
    void redactedThinkingSurvivesTheRoundTripUnchangedAndInOrder() {
        MessageCreateParams first = weather("claude-redacted");
        Message call = GATEWAY.client().messages().create(first);
        assertThat(MessagesItSupport.types(call)).containsExactly("redacted_thinking", "thinking", "tool_use");
        GATEWAY.gateway().upstream().reset();

        Message answer = GATEWAY.client().messages().create(withResults(first, call));

        assertThat(MessagesItSupport.text(answer)).isEqualTo("Tool result received: " + RESULT);
        JsonNode assistant = GATEWAY.gateway().upstream().received("up-claude-reasoning-redacted").getFirst().json()
                .path("messages").get(1).path("content");
        List<JsonNode> shown = reasoningBlocks(call);
        assertThat(assistant.get(0)).isEqualTo(shown.get(0));
        assertThat(assistant.get(1)).isEqualTo(shown.get(1));
        assertThat(assistant.get(2).path("type").asText()).isEqualTo("tool_use");
    }

    @Test
    void aToolLoopThroughAnOpenAiUpstreamAnswersTheCallByItsId() {
        MessageCreateParams first = weather("gpt-think");
        Message call = GATEWAY.client().messages().create(first);
        assertThat(MessagesItSupport.types(call)).containsExactly("thinking", "tool_use");
        String id = toolUses(call).getFirst().asToolUse().id();
        GATEWAY.gateway().upstream().reset();

        Message answer = GATEWAY.client().messages().create(withResults(first, call));

        assertThat(MessagesItSupport.text(answer)).isEqualTo("Tool result received: " + RESULT);
        JsonNode messages = GATEWAY.gateway().upstream().received("up-gpt-reasoning").getFirst().json().path("messages");
        JsonNode assistant = messages.get(messages.size() - 2);
        assertThat(assistant.path("tool_calls").get(0).path("id").asText()).isEqualTo(id);
        JsonNode tool = messages.get(messages.size() - 1);
        assertThat(tool.path("role").asText()).isEqualTo("tool");
        assertThat(tool.path("tool_call_id").asText()).isEqualTo(id);
        assertThat(tool.path("content").asText()).isEqualTo(RESULT);
    }

    @Test
    void toolResultsGoFirstInTheUserTurnAndConsecutiveTurnsOfOneRoleAreMerged() {
        MessageCreateParams first = weather("claude-chat");
        Message call = GATEWAY.client().messages().create(first);
        String id = toolUses(call).getFirst().asToolUse().id();
        GATEWAY.gateway().upstream().reset();
        // text before the result, then a second user turn: Anthropic would refuse both as sent
        MessageCreateParams next = first.toBuilder().addMessage(call)
                .addUserMessageOfContentBlockParams(List.of(
                        ContentBlockParam.ofText(TextBlockParam.builder().text("Here you go.").build()),
                        ContentBlockParam.ofToolResult(ToolResultBlockParam.builder().toolUseId(id).content(RESULT).build())))
                .addUserMessage("Be brief.")
                .build();

        Message answer = GATEWAY.client().messages().create(next);

        assertThat(answer.stopReason()).isPresent();
        JsonNode messages = GATEWAY.gateway().upstream().received("up-claude").getFirst().json().path("messages");
        assertThat(messages).hasSize(3);
        JsonNode turn = messages.get(2);
        assertThat(turn.path("role").asText()).isEqualTo("user");
        assertThat(turn.path("content")).extracting(b -> b.path("type").asText())
                .containsExactly("tool_result", "text", "text");
        assertThat(turn.path("content").get(0).path("tool_use_id").asText()).isEqualTo(id);
    }

    @Test
    void aSignatureTheClientAlteredIsRefusedByTheUpstreamAndReachesTheClientAsItsError() {
        MessageCreateParams first = thinkingWeather("claude-chat");
        Message call = GATEWAY.client().messages().create(first);
        ObjectNode thinking = (ObjectNode) reasoningBlocks(call).getFirst();
        String forged = thinking.path("signature").asText() + "x";
        Message altered = call.toBuilder().content(List.of(
                ContentBlock.ofThinking(call.content().getFirst().asThinking().toBuilder().signature(forged).build()),
                call.content().get(1))).build();

        var e = org.junit.jupiter.api.Assertions.assertThrows(com.anthropic.errors.BadRequestException.class,
                () -> GATEWAY.client().messages().create(withResults(first, altered)));

        assertThat(e.body().convert(JsonNode.class).path("error").path("message").asText()).contains("signature");
    }

    @Test
    void aReasoningTraceFromAnOpenAiUpstreamIsAThinkingBlockWithoutASignature() {
        Message message = GATEWAY.client().messages().create(MessagesItSupport.ask("gpt-think", "Think first").toBuilder()
                .maxTokens(2048).enabledThinking(1024).build());

        assertThat(MessagesItSupport.types(message)).containsExactly("thinking", "text");
        assertThat(message.content().getFirst().asThinking().thinking())
                .isEqualTo("Let me think about this request step by step before answering.");
        // an OpenAI-compatible trace has no Anthropic signature to show, and none is made up
        assertThat(message.content().getFirst().asThinking().signature()).isEmpty();
        // Anthropic's thinking object is never sent to an OpenAI-compatible upstream
        assertThat(GATEWAY.gateway().upstream().received("up-gpt-reasoning").getFirst().json().has("thinking")).isFalse();
    }
}
