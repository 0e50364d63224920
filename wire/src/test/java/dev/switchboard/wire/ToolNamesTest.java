package dev.switchboard.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.Message;
import dev.switchboard.model.Role;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.ToolChoice;
import dev.switchboard.model.ToolSpec;
import dev.switchboard.model.Usage;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Names and ids rewritten to each target's rules before a request goes up, and mapped back exactly. */
class ToolNamesTest {
    private static final String LONG_ID = "toolu_01" + "A".repeat(56);

    private static ToolSpec tool(String name) {
        return new ToolSpec(name, Optional.empty(), Json.object().put("type", "object"), Optional.empty(), Optional.empty());
    }

    private static ChatRequest request() {
        return ChatRequest.builder("m")
                .tools(List.of(tool("ns.get_time"), tool("ns_get_time"), tool("read_file"), tool("x".repeat(80))))
                .toolChoice(new ToolChoice.Named("ns.get_time"))
                .messages(List.of(Message.user("time?"),
                        new Message(Role.ASSISTANT, List.of(ContentBlock.ToolCall.of(LONG_ID, "ns.get_time", "{}"))),
                        new Message(Role.USER, List.of(new ContentBlock.ToolResult(LONG_ID, Optional.of("ns.get_time"),
                                List.of(ContentBlock.Text.of("noon")), false, Optional.empty())))))
                .build();
    }

    @Test
    void openAiGetsNamesAndIdsItAcceptsAndTheyAreConsistentAcrossTheHistory() {
        ToolNames names = ToolNames.of(request(), ToolNames.Rule.OPENAI);
        ChatRequest sent = names.apply(request());

        List<String> tools = sent.tools().stream().map(ToolSpec::name).toList();
        assertThat(tools).allMatch(n -> n.matches("[a-zA-Z0-9_-]{1,64}"));
        assertThat(tools).doesNotHaveDuplicates();
        assertThat(tools.get(1)).as("a name the target takes is kept").isEqualTo("ns_get_time");
        assertThat(tools.get(2)).isEqualTo("read_file");
        assertThat(tools.get(0)).as("no clash with the kept name").isNotEqualTo("ns_get_time");
        assertThat(((ToolChoice.Named) sent.toolChoice()).name()).isEqualTo(tools.get(0));

        ContentBlock.ToolCall call = (ContentBlock.ToolCall) sent.messages().get(1).content().getFirst();
        ContentBlock.ToolResult result = (ContentBlock.ToolResult) sent.messages().get(2).content().getFirst();
        assertThat(call.id()).hasSizeLessThanOrEqualTo(40).isEqualTo(result.callId());
        assertThat(call.name()).isEqualTo(tools.get(0)).isEqualTo(result.name().orElseThrow());
        assertThat(ToolNames.of(request(), ToolNames.Rule.OPENAI).apply(request())).as("the same on every turn").isEqualTo(sent);
    }

    @Test
    void answersPlainAndStreamedComeBackWithTheClientsNames() {
        ToolNames names = ToolNames.of(request(), ToolNames.Rule.OPENAI);
        String upstreamName = names.upstream("ns.get_time");
        ChatResponse answer = new ChatResponse("r", "u", List.of(ContentBlock.ToolCall.of("call_1", upstreamName, "{}")),
                StopReason.TOOL_USE, Optional.empty(), Usage.EMPTY);

        assertThat(((ContentBlock.ToolCall) names.restore(answer).content().getFirst()).name()).isEqualTo("ns.get_time");
        StreamEvent start = names.restore(new StreamEvent.BlockStart(0, ContentBlock.ToolCall.of("call_1", upstreamName, "")));
        assertThat(((ContentBlock.ToolCall) ((StreamEvent.BlockStart) start).block()).name()).isEqualTo("ns.get_time");
        assertThat(((ContentBlock.ToolCall) ((StreamEvent.BlockStart) names.restore(
                new StreamEvent.BlockStart(0, ContentBlock.ToolCall.of("call_2", "read_file", "")))).block()).name())
                .isEqualTo("read_file");
    }

    @Test
    void geminiKeepsDotsAndTakesLongIdsButNotNamesStartingWithADigit() {
        ChatRequest r = ChatRequest.builder("m").tools(List.of(tool("ns.get_time"), tool("1st-tool"))).addMessage(Message.user("q")).build();
        ToolNames names = ToolNames.of(r, ToolNames.Rule.GEMINI);
        assertThat(names.upstream("ns.get_time")).isEqualTo("ns.get_time");
        assertThat(names.upstream("1st-tool")).isEqualTo("_1st-tool");
        assertThat(names.original("_1st-tool")).isEqualTo("1st-tool");
        assertThat(ToolNames.of(request(), ToolNames.Rule.GEMINI).apply(request()).messages().get(1).content().getFirst())
                .isEqualTo(ContentBlock.ToolCall.of(LONG_ID, "ns.get_time", "{}"));
    }

    @Test
    void aRequestWhoseNamesFitIsLeftAlone() {
        ChatRequest r = ChatRequest.builder("m").tools(List.of(tool("read_file"))).addMessage(Message.user("q")).build();
        ToolNames names = ToolNames.of(r, ToolNames.Rule.OPENAI);
        assertThat(names.isIdentity()).isTrue();
        assertThat(names.apply(r)).isSameAs(r);
    }
}
