package dev.switchboard.testkit.it;

import static dev.switchboard.testkit.it.ItSupport.tool;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionContentPartText;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionFunctionTool;
import com.openai.models.chat.completions.ChatCompletionMessage;
import com.openai.models.chat.completions.ChatCompletionMessageToolCall;
import com.openai.models.chat.completions.ChatCompletionToolMessageParam;
import com.openai.models.completions.CompletionUsage;
import dev.switchboard.testkit.RecordedRequest;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An OpenAI-format client on Anthropic models, judged by the official OpenAI Java SDK: plain and streamed
 * answers, tool calls keeping Anthropic's ids with indexes counted over tool calls only, the thinking trace in
 * {@code message.reasoning} / {@code delta.reasoning_content}, signed thinking returned to the upstream intact
 * through a chat-completions tool loop, {@code cache_control} on content parts with cache usage in the
 * chat-completions shape, and prefill with its rewrite.
 */
class ChatToAnthropicIT {
    @RegisterExtension
    static final SdkGateway<OpenAIClient> GATEWAY = new SdkGateway<>(MessagesItSupport.CONFIG, ItSupport::client, MessagesItSupport.UPSTREAM_KEY);

    /** The trace the fake's reasoning answers carry. */
    private static final String TRACE = "Let me think about this request step by step before answering.";

    private static ChatCompletionCreateParams weather(String model, ChatCompletionFunctionTool... tools) {
        ChatCompletionCreateParams.Builder b = ChatCompletionCreateParams.builder().model(model)
                .addUserMessage("What is the weather in Paris?");
        for (ChatCompletionFunctionTool t : tools.length == 0 ? new ChatCompletionFunctionTool[] {tool("get_weather", "city")} : tools) {
            b.addTool(t);
        }
        return b.build();
    }

    private static List<ChatCompletionChunk> stream(ChatCompletionCreateParams params) {
        try (StreamResponse<ChatCompletionChunk> s = GATEWAY.client().chat().completions().createStreaming(params)) {
            return s.stream().toList();
        }
    }

    private static String extra(Map<String, JsonValue> properties, String name) {
        JsonValue v = properties.get(name);
        return v == null ? null : v.convert(String.class);
    }

    private static JsonNode json(JsonValue value) {
        return value.convert(JsonNode.class);
    }

    @Test
    void plainCompletionFromAnAnthropicUpstreamSendsItsKeyVersionAndTheModelsCapAsMaxTokens() {
        ChatCompletion completion = GATEWAY.client().chat().completions().create(ItSupport.ask("claude-chat", "Say hi to the tests"));

        assertThat(completion.model()).isEqualTo("claude-chat");
        ChatCompletion.Choice choice = completion.choices().getFirst();
        assertThat(choice.message().content()).contains("Hello from up-claude! You said: Say hi to the tests");
        assertThat(choice.finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.STOP);
        CompletionUsage usage = completion.usage().orElseThrow();
        assertThat(usage.promptTokens()).isEqualTo(6);
        assertThat(usage.totalTokens()).isEqualTo(usage.promptTokens() + usage.completionTokens());
        assertThat(usage.promptTokensDetails()).isEmpty();
        assertThat(usage._additionalProperties()).doesNotContainKeys("cache_creation_input_tokens", "cache_creation");

        RecordedRequest sent = GATEWAY.gateway().upstream().received("up-claude").getFirst();
        assertThat(sent.path()).isEqualTo("/v1/messages");
        assertThat(sent.header("x-api-key")).contains(MessagesItSupport.UPSTREAM_KEY);
        assertThat(sent.header("anthropic-version")).contains("2023-06-01");
        assertThat(sent.json().path("max_tokens").asInt()).isEqualTo(4096);
    }

    @Test
    void streamedCompletionFromAnAnthropicUpstreamConcatenatesAndEndsWithFinishAndUsage() {
        List<ChatCompletionChunk> chunks = stream(ItSupport.ask("claude-chat", "Say hi to the tests"));

        StringBuilder text = new StringBuilder();
        chunks.stream().filter(c -> !c.choices().isEmpty())
                .forEach(c -> c.choices().getFirst().delta().content().ifPresent(text::append));
        assertThat(text.toString()).isEqualTo("Hello from up-claude! You said: Say hi to the tests");
        assertThat(chunks).allSatisfy(c -> assertThat(c.model()).isEqualTo("claude-chat"));
        ChatCompletionChunk last = chunks.getLast();
        assertThat(last.choices().getFirst().finishReason()).contains(ChatCompletionChunk.Choice.FinishReason.STOP);
        assertThat(last.usage().orElseThrow().promptTokens()).isEqualTo(6);
    }

    @Test
    void reasoningAppearsInMessageReasoningAndInDeltaReasoningContent() {
        ChatCompletion completion = GATEWAY.client().chat().completions().create(ItSupport.ask("claude-think", "Think first"));
        List<ChatCompletionChunk> chunks = stream(ItSupport.ask("claude-think", "Think first"));

        ChatCompletionMessage message = completion.choices().getFirst().message();
        assertThat(extra(message._additionalProperties(), "reasoning")).isEqualTo(TRACE);
        assertThat(message.content()).contains("Hello from up-claude-reasoning! You said: Think first");
        StringBuilder streamed = new StringBuilder();
        for (ChatCompletionChunk c : chunks) {
            if (!c.choices().isEmpty()) {
                String piece = extra(c.choices().getFirst().delta()._additionalProperties(), "reasoning_content");
                if (piece != null) {
                    streamed.append(piece);
                }
            }
        }
        assertThat(streamed.toString()).isEqualTo(TRACE);
    }

    @Test
    void plainToolCallKeepsTheAnthropicIdAndSerialisesTheInput() {
        ChatCompletion completion = GATEWAY.client().chat().completions().create(weather("claude-chat"));

        ChatCompletion.Choice choice = completion.choices().getFirst();
        assertThat(choice.finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.TOOL_CALLS);
        var call = choice.message().toolCalls().orElseThrow().getFirst().asFunction();
        assertThat(call.id()).startsWith("toolu_fake_");
        assertThat(call.function().name()).isEqualTo("get_weather");
        assertThat(ItSupport.json(call.function().arguments()).path("city").asText()).isEqualTo("Paris");
        JsonNode tool = GATEWAY.gateway().upstream().received("up-claude").getFirst().json().path("tools").get(0);
        assertThat(tool.path("name").asText()).isEqualTo("get_weather");
        assertThat(tool.path("input_schema").path("required").get(0).asText()).isEqualTo("city");
    }

    @Test
    void streamedParallelCallsAfterThinkingAreToolCallIndexesZeroAndOneNotBlockIndexes() {
        List<ChatCompletionChunk> chunks = stream(weather("claude-parallel", tool("get_weather", "city"), tool("get_time", "timezone")));

        Map<Long, String[]> calls = new TreeMap<>(); // index -> id, name, arguments
        for (ChatCompletionChunk chunk : chunks) {
            for (ChatCompletionChunk.Choice choice : chunk.choices()) {
                for (var fragment : choice.delta().toolCalls().orElse(List.of())) {
                    String[] call = calls.computeIfAbsent(fragment.index(), i -> new String[] {null, null, ""});
                    fragment.id().ifPresent(id -> call[0] = id);
                    fragment.function().flatMap(f -> f.name()).ifPresent(n -> call[1] = n);
                    fragment.function().flatMap(f -> f.arguments()).ifPresent(a -> call[2] += a);
                }
            }
        }
        assertThat(calls).containsOnlyKeys(0L, 1L);
        assertThat(calls.get(0L)[0]).startsWith("toolu_fake_").isNotEqualTo(calls.get(1L)[0]);
        assertThat(calls.get(0L)[1]).isEqualTo("get_weather");
        assertThat(ItSupport.json(calls.get(0L)[2]).path("city").asText()).isEqualTo("Paris");
        assertThat(calls.get(1L)[1]).isEqualTo("get_time");
        assertThat(ItSupport.json(calls.get(1L)[2]).path("timezone").asText()).isEqualTo("Paris");
        ChatCompletionChunk last = chunks.getLast();
        assertThat(last.choices().getFirst().finishReason()).contains(ChatCompletionChunk.Choice.FinishReason.TOOL_CALLS);
    }

    @Test
    void aChatCompletionsToolLoopReturnsTheSignedThinkingToTheUpstreamIntact() {
        ChatCompletionCreateParams first = weather("claude-think");
        ChatCompletion call = GATEWAY.client().chat().completions().create(first);
        ChatCompletionMessage assistant = call.choices().getFirst().message();
        ChatCompletionMessageToolCall toolCall = assistant.toolCalls().orElseThrow().getFirst();
        JsonNode details = json(assistant._additionalProperties().get("reasoning_details"));
        String signature = details.get(0).path("signature").asText();
        assertThat(signature).startsWith("fakesig.");
        GATEWAY.gateway().upstream().reset();

        ChatCompletion answer = GATEWAY.client().chat().completions().create(first.toBuilder()
                .addMessage(assistant)
                .addMessage(ChatCompletionToolMessageParam.builder().toolCallId(toolCall.asFunction().id()).content("31 C").build())
                .build());

        assertThat(answer.choices().getFirst().message().content()).contains("Tool result received: 31 C");
        RecordedRequest sent = GATEWAY.gateway().upstream().received("up-claude-reasoning").getFirst();
        JsonNode assistantTurn = sent.json().path("messages").get(1).path("content");
        assertThat(assistantTurn.get(0)).isEqualTo(ItSupport.json(
                "{\"type\":\"thinking\",\"thinking\":\"" + TRACE + "\",\"signature\":\"" + signature + "\"}"));
        assertThat(sent.bodyText()).contains("\"signature\":\"" + signature + "\"");
        assertThat(assistantTurn.get(1).path("id").asText()).isEqualTo(toolCall.asFunction().id());
    }

    @Test
    void consecutiveToolResultsAndAUserMessageBecomeOneUserTurnWithTheResultsFirst() {
        ChatCompletionCreateParams first = weather("claude-parallel", tool("get_weather", "city"), tool("get_time", "timezone"));
        ChatCompletionMessage assistant = GATEWAY.client().chat().completions().create(first).choices().getFirst().message();
        List<ChatCompletionMessageToolCall> calls = assistant.toolCalls().orElseThrow();
        assertThat(calls).hasSize(2);
        GATEWAY.gateway().upstream().reset();

        ChatCompletion answer = GATEWAY.client().chat().completions().create(first.toBuilder()
                .addMessage(assistant)
                .addMessage(ChatCompletionToolMessageParam.builder().toolCallId(calls.get(0).asFunction().id()).content("sunny").build())
                .addMessage(ChatCompletionToolMessageParam.builder().toolCallId(calls.get(1).asFunction().id()).content("noon").build())
                .addUserMessage("Answer in one line.")
                .build());

        assertThat(answer.choices().getFirst().message().content()).isPresent();
        JsonNode messages = GATEWAY.gateway().upstream().received("up-claude-reasoning-parallel").getFirst().json().path("messages");
        assertThat(messages).extracting(m -> m.path("role").asText()).containsExactly("user", "assistant", "user");
        JsonNode turn = messages.get(2).path("content");
        assertThat(turn).extracting(b -> b.path("type").asText()).containsExactly("tool_result", "tool_result", "text");
        assertThat(turn.get(0).path("tool_use_id").asText()).isEqualTo(calls.get(0).asFunction().id());
        assertThat(turn.get(1).path("tool_use_id").asText()).isEqualTo(calls.get(1).asFunction().id());
    }

    private static ChatCompletionCreateParams cachedSystem(String system, String question) {
        return ChatCompletionCreateParams.builder().model("claude-chat")
                .addSystemMessageOfArrayOfContentParts(List.of(ChatCompletionContentPartText.builder().text(system)
                        .putAdditionalProperty("cache_control", JsonValue.from(Map.of("type", "ephemeral")))
                        .build()))
                .addUserMessage(question)
                .build();
    }

    @Test
    void cacheControlOnAContentPartCachesOnAnAnthropicModelAndUsageUsesTheChatCompletionsFields() {
        String system = "You are the night porter of an old hotel; answer guests politely and briefly.";
        CompletionUsage written = GATEWAY.client().chat().completions().create(cachedSystem(system, "Is breakfast included?"))
                .usage().orElseThrow();
        CompletionUsage read = GATEWAY.client().chat().completions().create(cachedSystem(system, "Is breakfast included?"))
                .usage().orElseThrow();

        JsonNode sent = GATEWAY.gateway().upstream().received("up-claude").getFirst().json();
        assertThat(sent.path("system").get(0).path("cache_control")).isEqualTo(ItSupport.json("{\"type\":\"ephemeral\"}"));
        long writes = json(written._additionalProperties().get("cache_creation_input_tokens")).asLong();
        assertThat(writes).isPositive();
        assertThat(json(written._additionalProperties().get("cache_creation")))
                .isEqualTo(ItSupport.json("{\"ephemeral_5m_input_tokens\":" + writes + ",\"ephemeral_1h_input_tokens\":0}"));
        assertThat(written.promptTokensDetails()).as("zero-valued cache reads are omitted").isEmpty();
        assertThat(read.promptTokensDetails().orElseThrow().cachedTokens()).contains(writes);
        assertThat(read._additionalProperties()).doesNotContainKeys("cache_creation_input_tokens", "cache_creation");
        // prompt_tokens counts cached and written tokens too: the same prompt is the same size either way
        assertThat(read.promptTokens()).isEqualTo(written.promptTokens()).isGreaterThan(writes);
    }

    @Test
    void prefillOnAnAnthropicModelIsNative() {
        ChatCompletion completion = GATEWAY.client().chat().completions().create(ChatCompletionCreateParams.builder()
                .model("claude-chat").addUserMessage("Write a haiku about autumn").addAssistantMessage("Autumn leaves").build());

        assertThat(completion.choices().getFirst().message().content()).isPresent();
        List<RecordedRequest> sent = GATEWAY.gateway().upstream().received("up-claude");
        assertThat(sent).hasSize(1);
        assertThat(sent.getFirst().json().path("messages").get(1).path("role").asText()).isEqualTo("assistant");
    }

    @Test
    void aProviderRefusingPrefillIsRetriedOnceWithTheRewritePlainAndStreamed() {
        ChatCompletionCreateParams params = ChatCompletionCreateParams.builder().model("claude-noprefill")
                .addUserMessage("Write a haiku about autumn").addAssistantMessage("Autumn leaves").build();

        String plain = GATEWAY.client().chat().completions().create(params).choices().getFirst().message().content().orElseThrow();
        StringBuilder streamed = new StringBuilder();
        stream(params).stream().filter(c -> !c.choices().isEmpty())
                .forEach(c -> c.choices().getFirst().delta().content().ifPresent(streamed::append));

        assertThat(plain).startsWith("Hello from up-strict-noprefill! You said: ");
        assertThat(streamed.toString()).isEqualTo(plain);
        List<RecordedRequest> sent = GATEWAY.gateway().upstream().received("up-strict-noprefill");
        assertThat(sent).hasSize(4); // refused, rewritten; refused, rewritten
        for (int i = 0; i < 4; i++) {
            JsonNode messages = sent.get(i).json().path("messages");
            assertThat(messages.get(messages.size() - 1).path("role").asText()).isEqualTo(i % 2 == 0 ? "assistant" : "user");
        }
        assertThat(sent.get(1).json().path("messages").toString()).contains("Autumn leaves");
    }

    @Test
    void toolIdsAnthropicWouldRefuseAreSanitisedAlikeOnTheCallAndItsResult() {
        // a history from another provider whose call id has characters outside [a-zA-Z0-9_-]
        java.net.http.HttpResponse<String> response = ItSupport.post(GATEWAY.gateway(), "/v1/chat/completions", ItSupport.bearer(GATEWAY.gateway().apiKey()), """
                {"model": "claude-chat", "messages": [
                  {"role": "user", "content": "Weather in Paris?"},
                  {"role": "assistant", "content": null, "tool_calls": [{"id": "functions.get_weather:0", "type": "function",
                    "function": {"name": "get_weather", "arguments": "{\\"city\\":\\"Paris\\"}"}}]},
                  {"role": "tool", "tool_call_id": "functions.get_weather:0", "content": "sunny"}],
                 "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}]}""");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(ItSupport.json(response.body()).at("/choices/0/message/content").asText()).isEqualTo("Tool result received: sunny");
        JsonNode messages = GATEWAY.gateway().upstream().received("up-claude").getFirst().json().path("messages");
        String id = messages.get(1).path("content").get(0).path("id").asText();
        assertThat(id).matches("[a-zA-Z0-9_-]+");
        assertThat(messages.get(2).path("content").get(0).path("tool_use_id").asText()).isEqualTo(id);
    }

    @Test
    void anOverloadedAnthropicTargetFailsOverForAnOpenAiClientToo() {
        ChatCompletion completion = GATEWAY.client().chat().completions().create(ItSupport.ask("claude-failover", "hi"));

        assertThat(completion.model()).isEqualTo("claude-failover");
        assertThat(completion.choices().getFirst().message().content()).contains("Hello from up-claude-rescue! You said: hi");
        assertThat(ItSupport.upstreamModels(GATEWAY.gateway())).containsExactly("up-busy-fail529", "up-claude-rescue");
    }

    @Test
    void anAnthropicErrorEventMidStreamBecomesAFinalErrorChunkThenDone() {
        java.net.http.HttpResponse<String> response = ItSupport.post(GATEWAY.gateway(), "/v1/chat/completions", ItSupport.bearer(GATEWAY.gateway().apiKey()),
                "{\"model\":\"claude-midfail\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"a long story\"}]}");

        assertThat(response.statusCode()).isEqualTo(200);
        List<String> data = ItSupport.sseData(response.body());
        assertThat(data.getLast()).isEqualTo("[DONE]");
        JsonNode error = ItSupport.json(data.get(data.size() - 2)).path("error");
        assertThat(error.path("message").asText()).isEqualTo("Overloaded");
        // one rule for errors inside a stream, in every format: a failed provider is 503 (the upstream's words kept)
        assertThat(error.path("code").asText()).isEqualTo("503");
        assertThat(ItSupport.upstreamModels(GATEWAY.gateway())).containsExactly("up-cut-midfail");
    }

    @Test
    void aThinkingBudgetFromAChatCompletionsClientBecomesAnthropicThinkingAndItsTraceMessageReasoning() {
        ChatCompletion completion = GATEWAY.client().chat().completions().create(ItSupport.ask("claude-chat", "Think first").toBuilder()
                .putAdditionalBodyProperty("thinking", JsonValue.from(Map.of("type", "enabled", "budget_tokens", 1024)))
                .build());

        assertThat(extra(completion.choices().getFirst().message()._additionalProperties(), "reasoning")).isEqualTo(TRACE);
        // spec 2.4 rule 4: reasoning_tokens only when the upstream reports them, and this one does not
        assertThat(completion.usage().orElseThrow().completionTokensDetails()).isEmpty();
        JsonNode sent = GATEWAY.gateway().upstream().received("up-claude").getFirst().json();
        assertThat(sent.path("thinking")).isEqualTo(ItSupport.json("{\"type\":\"enabled\",\"budget_tokens\":1024}"));
        assertThat(sent.path("max_tokens").asInt()).isEqualTo(4096);
    }
}
