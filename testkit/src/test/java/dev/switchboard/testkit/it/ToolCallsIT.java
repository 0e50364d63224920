package dev.switchboard.testkit.it;

import static dev.switchboard.testkit.it.ItSupport.tool;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.core.http.StreamResponse;
import com.openai.helpers.ChatCompletionAccumulator;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionFunctionTool;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import com.openai.models.chat.completions.ChatCompletionMessageToolCall;
import com.openai.models.chat.completions.ChatCompletionToolMessageParam;
import dev.switchboard.testkit.RecordedRequest;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Tool calls plain and streamed, parallel calls, and the tool-result turn, judged by the official OpenAI SDK. */
class ToolCallsIT {
    @RegisterExtension
    static final SdkGateway<OpenAIClient> GATEWAY = ItSupport.openAiGateway();

    private static ChatCompletionCreateParams withTools(String model, ChatCompletionFunctionTool... tools) {
        ChatCompletionCreateParams.Builder b = ChatCompletionCreateParams.builder().model(model)
                .addUserMessage("What is the weather in Paris?");
        for (ChatCompletionFunctionTool t : tools) {
            b.addTool(t);
        }
        return b.build();
    }

    /** One streamed tool call as the SDK's chunks assemble it: the id and name of its first fragment, all argument slices. */
    private record StreamedCall(String id, String name, String arguments) {
    }

    private static Map<Long, StreamedCall> streamedCalls(List<ChatCompletionChunk> chunks) {
        Map<Long, StreamedCall> calls = new TreeMap<>();
        for (ChatCompletionChunk chunk : chunks) {
            for (ChatCompletionChunk.Choice choice : chunk.choices()) {
                for (ChatCompletionChunk.Choice.Delta.ToolCall call : choice.delta().toolCalls().orElse(List.of())) {
                    StreamedCall before = calls.get(call.index());
                    String id = call.id().orElse(null);
                    String name = call.function().flatMap(ChatCompletionChunk.Choice.Delta.ToolCall.Function::name).orElse(null);
                    String args = call.function().flatMap(ChatCompletionChunk.Choice.Delta.ToolCall.Function::arguments).orElse("");
                    if (before == null) {
                        assertThat(id).as("first fragment of tool call %s carries its id", call.index()).isNotBlank();
                        assertThat(name).as("first fragment of tool call %s carries its name", call.index()).isNotBlank();
                        calls.put(call.index(), new StreamedCall(id, name, args));
                    } else {
                        assertThat(id == null || id.equals(before.id())).as("a later fragment keeps the call's id").isTrue();
                        calls.put(call.index(), new StreamedCall(before.id(), before.name(), before.arguments() + args));
                    }
                }
            }
        }
        return calls;
    }

    private static List<ChatCompletionChunk> stream(ChatCompletionCreateParams params) {
        try (StreamResponse<ChatCompletionChunk> s = GATEWAY.client().chat().completions().createStreaming(params)) {
            return s.stream().toList();
        }
    }

    @Test
    void plainToolCallHasIdNameAndParseableArguments() {
        ChatCompletion completion = GATEWAY.client().chat().completions().create(withTools("chat-tools", tool("get_weather", "city")));

        assertThat(completion.model()).isEqualTo("chat-tools");
        ChatCompletion.Choice choice = completion.choices().getFirst();
        assertThat(choice.finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.TOOL_CALLS);
        List<ChatCompletionMessageToolCall> calls = choice.message().toolCalls().orElseThrow();
        assertThat(calls).hasSize(1);
        ChatCompletionMessageFunctionToolCall call = calls.getFirst().asFunction();
        assertThat(call.id()).isNotBlank();
        assertThat(call.function().name()).isEqualTo("get_weather");
        JsonNode arguments = ItSupport.json(call.function().arguments());
        assertThat(arguments.path("city").asText()).isEqualTo("Paris");
        // the tool definition reached the upstream intact
        JsonNode sent = GATEWAY.gateway().upstream().received("up-tools").getFirst().json();
        assertThat(sent.path("tools").get(0).path("function").path("name").asText()).isEqualTo("get_weather");
        assertThat(sent.path("tools").get(0).path("function").path("parameters").path("required").get(0).asText())
                .isEqualTo("city");
    }

    @Test
    void streamedToolCallAssemblesToIdNameAndParseableArguments() {
        List<ChatCompletionChunk> chunks = stream(withTools("chat-tools", tool("get_weather", "city")));

        Map<Long, StreamedCall> calls = streamedCalls(chunks);
        assertThat(calls).containsOnlyKeys(0L);
        StreamedCall call = calls.get(0L);
        assertThat(call.name()).isEqualTo("get_weather");
        assertThat(ItSupport.json(call.arguments()).path("city").asText()).isEqualTo("Paris");
        ChatCompletionChunk last = chunks.stream().filter(c -> !c.choices().isEmpty()).reduce((a, b) -> b).orElseThrow();
        assertThat(last.choices().getFirst().finishReason()).contains(ChatCompletionChunk.Choice.FinishReason.TOOL_CALLS);
        assertThat(chunks.getLast().usage()).isPresent();
    }

    @Test
    void streamedParallelToolCallsArriveAtIndexesZeroAndOneWithTheirOwnIdsAndArguments() {
        List<ChatCompletionChunk> chunks = stream(withTools("chat-parallel",
                tool("get_weather", "city"), tool("get_time", "timezone")));

        Map<Long, StreamedCall> calls = streamedCalls(chunks);
        assertThat(calls).containsOnlyKeys(0L, 1L);
        assertThat(calls.get(0L).name()).isEqualTo("get_weather");
        assertThat(ItSupport.json(calls.get(0L).arguments()).path("city").asText()).isEqualTo("Paris");
        assertThat(ItSupport.json(calls.get(0L).arguments()).has("timezone")).isFalse();
        assertThat(calls.get(1L).name()).isEqualTo("get_time");
        assertThat(ItSupport.json(calls.get(1L).arguments()).path("timezone").asText()).isEqualTo("Paris");
        assertThat(ItSupport.json(calls.get(1L).arguments()).has("city")).isFalse();
        assertThat(calls.get(0L).id()).isNotEqualTo(calls.get(1L).id());
    }

    /*
     * The SDK's ChatCompletionAccumulator treats any chunk that carries usage as OpenAI's usage-only chunk
     * (choices: []), sent after a separate finish_reason chunk; it throws "`choices` is required" on a chunk
     * that carries finish_reason and usage together. Spec 6.1 item 4 asks for exactly that combined final
     * chunk, so the two cannot both be satisfied: a product decision, not a bug to fix here.
     */
    @Disabled("spec 6.1 final chunk (finish_reason + usage together) conflicts with openai-java's ChatCompletionAccumulator")
    @Test
    void sdkAccumulatorAssemblesTheStreamedParallelCallsIntoTheSameAnswerAsThePlainOne() {
        ChatCompletionAccumulator accumulator = ChatCompletionAccumulator.create();
        stream(withTools("chat-parallel", tool("get_weather", "city"), tool("get_time", "timezone")))
                .forEach(accumulator::accumulate);

        ChatCompletion assembled = accumulator.chatCompletion();
        assertThat(assembled.model()).isEqualTo("chat-parallel");
        ChatCompletion.Choice choice = assembled.choices().getFirst();
        assertThat(choice.finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.TOOL_CALLS);
        List<ChatCompletionMessageToolCall> calls = choice.message().toolCalls().orElseThrow();
        assertThat(calls).hasSize(2);
        assertThat(calls.get(0).asFunction().function().name()).isEqualTo("get_weather");
        assertThat(ItSupport.json(calls.get(0).asFunction().function().arguments()).path("city").asText()).isEqualTo("Paris");
        assertThat(calls.get(1).asFunction().function().name()).isEqualTo("get_time");
        assertThat(ItSupport.json(calls.get(1).asFunction().function().arguments()).path("timezone").asText()).isEqualTo("Paris");
        assertThat(assembled.usage()).isPresent();
    }

    @Test
    void plainParallelToolCallsKeepTheirOwnIdsAndArguments() {
        ChatCompletion completion = GATEWAY.client().chat().completions().create(withTools("chat-parallel",
                tool("get_weather", "city"), tool("get_time", "timezone")));

        List<ChatCompletionMessageToolCall> calls = completion.choices().getFirst().message().toolCalls().orElseThrow();
        assertThat(calls).hasSize(2);
        ChatCompletionMessageFunctionToolCall weather = calls.get(0).asFunction();
        ChatCompletionMessageFunctionToolCall time = calls.get(1).asFunction();
        assertThat(weather.function().name()).isEqualTo("get_weather");
        assertThat(time.function().name()).isEqualTo("get_time");
        assertThat(ItSupport.json(time.function().arguments()).path("timezone").asText()).isEqualTo("Paris");
        assertThat(weather.id()).isNotEqualTo(time.id());
    }

    @Test
    void toolResultTurnReachesTheUpstreamWithItsCallIdAndTheAnswerQuotesTheResult() {
        ChatCompletionFunctionTool weather = tool("get_weather", "city");
        ChatCompletion first = GATEWAY.client().chat().completions().create(withTools("chat-tools", weather));
        var assistant = first.choices().getFirst().message();
        String callId = assistant.toolCalls().orElseThrow().getFirst().asFunction().id();

        ChatCompletionCreateParams next = withTools("chat-tools", weather).toBuilder()
                .addMessage(assistant)
                .addMessage(ChatCompletionToolMessageParam.builder().toolCallId(callId).content("sunny, 21 C").build())
                .build();
        GATEWAY.gateway().upstream().reset();
        ChatCompletion answer = GATEWAY.client().chat().completions().create(next);

        assertThat(answer.choices().getFirst().message().content().orElseThrow())
                .isEqualTo("Tool result received: sunny, 21 C");
        RecordedRequest sent = GATEWAY.gateway().upstream().received("up-tools").getFirst();
        JsonNode messages = sent.json().path("messages");
        JsonNode toolMessage = messages.get(messages.size() - 1);
        assertThat(toolMessage.path("role").asText()).isEqualTo("tool");
        assertThat(toolMessage.path("tool_call_id").asText()).isEqualTo(callId);
        JsonNode assistantSent = messages.get(messages.size() - 2);
        assertThat(assistantSent.path("role").asText()).isEqualTo("assistant");
        assertThat(assistantSent.path("tool_calls").get(0).path("id").asText()).isEqualTo(callId);
        assertThat(assistantSent.path("tool_calls").get(0).path("function").path("name").asText()).isEqualTo("get_weather");
    }
}
