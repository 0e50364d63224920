package dev.switchboard.testkit.it.responses;

import static dev.switchboard.testkit.it.responses.ResponsesItSupport.calls;
import static dev.switchboard.testkit.it.responses.ResponsesItSupport.client;
import static dev.switchboard.testkit.it.responses.ResponsesItSupport.functionOutput;
import static dev.switchboard.testkit.it.responses.ResponsesItSupport.text;
import static dev.switchboard.testkit.it.responses.ResponsesItSupport.tree;
import static dev.switchboard.testkit.it.responses.ResponsesItSupport.userMessage;
import static dev.switchboard.testkit.it.responses.ResponsesItSupport.weatherTool;
import static org.assertj.core.api.Assertions.assertThat;

import com.openai.client.OpenAIClient;
import com.openai.helpers.ResponseAccumulator;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseFunctionToolCall;
import com.openai.models.responses.ResponseInputItem;
import com.openai.models.responses.ToolChoiceOptions;
import com.openai.models.responses.inputitems.InputItemListParams;
import dev.switchboard.testkit.GatewayExtension;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestGateway;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A stored conversation that changes provider: for every ordered pair of enabled upstream kinds, a
 * three-turn chain with a tool call starts on the first kind (the model calls {@code get_weather}) and
 * goes on, after the move, on the second (the tool's output is answered, then a follow-up question),
 * plain and streamed. Each provider must receive the whole conversation in its own wire format,
 * including the other provider's tool call and the caller's result.
 */
class ResponsesCrossProviderIT {
    @RegisterExtension
    static final GatewayExtension GATEWAY = new GatewayExtension(ResponsesItSupport.CONFIG);

    static Stream<Arguments> moves() {
        return UpstreamKind.moves().flatMap(a -> Stream.of(
                Arguments.of(a.get()[0], a.get()[1], false), Arguments.of(a.get()[0], a.get()[1], true)));
    }

    private static TestGateway gateway() {
        return GATEWAY.gateway();
    }

    @ParameterizedTest(name = "{0} -> {1}, streamed: {2}")
    @MethodSource("moves")
    void aThreeTurnChainWithAToolCallSurvivesTheMove(UpstreamKind from, UpstreamKind to, boolean streamed) {
        OpenAIClient sdk = client(gateway());

        Response first = run(sdk, ResponseCreateParams.builder().model(from.model()).input("Weather in Oslo?")
                .addTool(weatherTool()).build(), streamed);
        List<ResponseFunctionToolCall> calls = calls(first);
        assertThat(calls).hasSize(1);
        ResponseFunctionToolCall call = calls.getFirst();

        Response second = run(sdk, ResponseCreateParams.builder().model(to.model()).previousResponseId(first.id())
                .addTool(weatherTool())
                .inputOfResponse(List.of(functionOutput(call.callId(), "{\"temp_c\":4}"))).build(), streamed);
        assertThat(second.model().asString()).isEqualTo(to.model());
        assertThat(calls(second)).isEmpty();
        assertThat(text(second)).contains("{\"temp_c\":4}");

        // Tools stay declared (Anthropic wants them whenever the history holds tool calls) but are off.
        Response third = run(sdk, ResponseCreateParams.builder().model(to.model()).previousResponseId(second.id())
                .addTool(weatherTool()).toolChoice(ToolChoiceOptions.NONE)
                .inputOfResponse(List.<ResponseInputItem>of(userMessage("Thanks! And tomorrow?"))).build(), streamed);
        assertThat(text(third)).contains("You said: Thanks! And tomorrow?");

        if (to.recorded()) {
            List<RecordedRequest> got = gateway().upstream().received(to.upstreamModel());
            assertThat(Transcript.of(to, got.getLast())).containsSubsequence(
                    "user: Weather in Oslo?",
                    "call get_weather " + call.callId(),
                    "result " + call.callId() + ": {\"temp_c\":4}",
                    "assistant: " + text(second),
                    "user: Thanks! And tomorrow?");
        }
        assertThat(sdk.responses().inputItems().list(InputItemListParams.builder().responseId(third.id())
                .order(InputItemListParams.Order.ASC).build()).data())
                .extracting(i -> tree(i).path("type").asText())
                .containsExactly("message", "function_call", "function_call_output", "message", "message");
        assertThat(sdk.responses().retrieve(first.id()).model().asString()).isEqualTo(from.model());
    }

    private static Response run(OpenAIClient sdk, ResponseCreateParams params, boolean streamed) {
        if (!streamed) {
            return sdk.responses().create(params);
        }
        ResponseAccumulator acc = ResponseAccumulator.create();
        ResponsesItSupport.stream(sdk, params).events().forEach(acc::accumulate);
        Response r = acc.response();
        assertThat(r.error()).isEqualTo(Optional.empty());
        return r;
    }
}
