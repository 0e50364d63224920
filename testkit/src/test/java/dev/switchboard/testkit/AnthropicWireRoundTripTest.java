package dev.switchboard.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.Message;
import dev.switchboard.model.Role;
import dev.switchboard.model.StreamAccumulator;
import dev.switchboard.model.ToolSpec;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.anthropic.Anthropic;
import dev.switchboard.wire.anthropic.AnthropicUpstreamStreamParser;
import dev.switchboard.wire.sse.SseEvent;
import dev.switchboard.wire.sse.SseParser;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The gateway's Anthropic translation against the fake, which checks what Anthropic checks: a client's
 * tool loop with thinking goes client -> canonical -> upstream -> canonical -> client and back again, and
 * the fake verifies that the signature it issued comes back unchanged beside the tool result.
 */
class AnthropicWireRoundTripTest extends FakeUpstreamSupport {
    private final AnthropicClient client = new AnthropicClient(upstream);

    private static final String CLIENT_REQUEST = """
            {"model": "gateway-model", "max_tokens": 4000,
             "thinking": {"type": "enabled", "budget_tokens": 2000},
             "temperature": 0.3, "tool_choice": {"type": "any"},
             "tools": [{"name": "get_weather", "input_schema": {"type": "object",
                        "properties": {"city": {"type": "string"}}, "required": ["city"]}}],
             "messages": [{"role": "user", "content": "Weather in Paris?"}]}""";

    /** What the engine's provider call will do: the body, the betas it needs, the key and version headers. */
    private String post(ChatRequest request, boolean stream) throws Exception {
        ObjectNode body = Anthropic.toUpstream(request, "claude-fake", stream, 1024);
        HttpRequest.Builder http = client.request(body);
        Anthropic.requiredBetas(request).forEach(b -> http.header("anthropic-beta", b));
        HttpResponse<String> response = client.send(http.build());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return response.body();
    }

    private ChatResponse answer(ChatRequest request, boolean stream) throws Exception {
        String body = post(request, stream);
        if (!stream) {
            return Anthropic.fromUpstream(Json.parse(body));
        }
        AnthropicUpstreamStreamParser parser = new AnthropicUpstreamStreamParser();
        SseParser sse = new SseParser();
        List<SseEvent> raw = new ArrayList<>(sse.feed(body));
        raw.addAll(sse.finish());
        StreamAccumulator acc = new StreamAccumulator();
        for (SseEvent e : raw) {
            parser.onEvent(e.event(), e.data()).forEach(acc::accept);
        }
        parser.onEnd().forEach(acc::accept);
        assertThat(acc.complete()).isTrue();
        assertThat(acc.error()).isEmpty();
        return acc.response();
    }

    @Test
    void aThinkingToolLoopSurvivesTheGatewayPlain() throws Exception {
        toolLoop(false);
    }

    @Test
    void aThinkingToolLoopSurvivesTheGatewayStreamed() throws Exception {
        toolLoop(true);
    }

    private void toolLoop(boolean stream) throws Exception {
        // The fake refuses forced tools and temperature with thinking on: the translation must have fixed both.
        ChatRequest first = Anthropic.fromClient(Json.parse(CLIENT_REQUEST));
        ChatResponse call = answer(first, stream);
        JsonNode shown = Anthropic.toClient(call.withModel("gateway-model"));
        assertThat(shown.at("/content/0/type").asText()).isEqualTo("thinking");
        assertThat(shown.at("/content/0/signature").asText()).startsWith(FakeSignatures.PREFIX);
        JsonNode toolUse = shown.at("/content/1");
        assertThat(toolUse.get("type").asText()).isEqualTo("tool_use");

        // The client sends the turn back with its result, exactly as the Anthropic SDK would.
        ObjectNode next = (ObjectNode) Json.parse(CLIENT_REQUEST);
        next.withArray("messages").addObject().put("role", "assistant").set("content", shown.get("content"));
        next.withArray("messages").addObject().put("role", "user").putArray("content").addObject()
                .put("type", "tool_result").put("tool_use_id", toolUse.get("id").asText()).put("content", "31°C, sunny");
        ChatResponse result = answer(Anthropic.fromClient(next), stream);

        assertThat(result.text()).isEqualTo("Tool result received: 31°C, sunny");
    }

    @Test
    void aChatCompletionsHistoryBecomesOneTheFakeAccepts() throws Exception {
        // ids with characters Anthropic rejects, an empty assistant text, one message per tool result.
        ToolSpec tool = new ToolSpec("get_weather", Optional.empty(), Json.parse("{\"type\":\"object\"}"),
                Optional.empty(), Optional.empty());
        ChatRequest history = ChatRequest.builder("gateway-model")
                .tools(List.of(tool))
                .addMessage(Message.user("Weather in Paris and Lyon?"))
                .addMessage(new Message(Role.ASSISTANT, List.of(ContentBlock.Text.of(""),
                        ContentBlock.ToolCall.of("functions.get_weather:0", "get_weather", "{\"city\":\"Paris\"}"),
                        ContentBlock.ToolCall.of("functions.get_weather:1", "get_weather", ""))))
                .addMessage(new Message(Role.USER, List.of(new ContentBlock.ToolResult("functions.get_weather:0",
                        Optional.empty(), List.of(ContentBlock.Text.of("31°C")), false, Optional.empty()))))
                .addMessage(new Message(Role.USER, List.of(new ContentBlock.ToolResult("functions.get_weather:1",
                        Optional.empty(), List.of(ContentBlock.Text.of("28°C")), false, Optional.empty()))))
                .build();

        assertThat(answer(history, false).text()).isEqualTo("Tool result received: 28°C");
    }
}
