package dev.switchboard.testkit.it.responses;

import static dev.switchboard.testkit.it.responses.ResponsesItSupport.ask;
import static dev.switchboard.testkit.it.responses.ResponsesItSupport.calls;
import static dev.switchboard.testkit.it.responses.ResponsesItSupport.client;
import static dev.switchboard.testkit.it.responses.ResponsesItSupport.functionOutput;
import static dev.switchboard.testkit.it.responses.ResponsesItSupport.reasoningItems;
import static dev.switchboard.testkit.it.responses.ResponsesItSupport.stream;
import static dev.switchboard.testkit.it.responses.ResponsesItSupport.text;
import static dev.switchboard.testkit.it.responses.ResponsesItSupport.tree;
import static dev.switchboard.testkit.it.responses.ResponsesItSupport.weatherTool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.openai.client.OpenAIClient;
import com.openai.errors.NotFoundException;
import com.openai.helpers.ResponseAccumulator;
import com.openai.models.Reasoning;
import com.openai.models.ReasoningEffort;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseFunctionToolCall;
import com.openai.models.responses.ResponseItem;
import com.openai.models.responses.ResponseStatus;
import com.openai.models.responses.ResponseUsage;
import com.openai.models.responses.inputitems.InputItemListParams;
import dev.switchboard.testkit.GatewayExtension;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestGateway;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The official OpenAI Java SDK's Responses API against the gateway, once per upstream kind
 * ({@link UpstreamKind#ENABLED}): create, stream, chain with {@code previous_response_id}, a function
 * call answered by a {@code function_call_output}, reasoning summaries, retrieve / input items / delete,
 * and a stream that breaks mid-way. The SDK validates every object it parses
 * ({@code responseValidation(true)}), so a missing or mistyped field fails the test.
 */
class ResponsesSdkIT {
    @RegisterExtension
    static final GatewayExtension GATEWAY = new GatewayExtension(ResponsesItSupport.CONFIG);

    static Stream<UpstreamKind> kinds() {
        return UpstreamKind.enabled();
    }

    static Stream<UpstreamKind> recordedKinds() {
        return UpstreamKind.recordedKinds();
    }

    private static TestGateway gateway() {
        return GATEWAY.gateway();
    }

    private static OpenAIClient sdk() {
        return client(gateway());
    }

    /** The last request the fake received for this kind's upstream model. */
    private static List<String> lastTranscript(UpstreamKind kind, String... variant) {
        List<RecordedRequest> got = gateway().upstream().received(kind.upstreamModel(variant));
        assertThat(got).as("requests the fake received for %s", kind.upstreamModel(variant)).isNotEmpty();
        return Transcript.of(kind, got.getLast());
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void createsAResponse(UpstreamKind kind) {
        Response r = sdk().responses().create(ask(kind.model(), "Hello there").instructions("Be brief.").build());

        assertThat(r.id()).startsWith("resp_");
        assertThat(r.status()).contains(ResponseStatus.COMPLETED);
        assertThat(r.model().asString()).isEqualTo(kind.model());
        assertThat(text(r)).contains("You said: Hello there");
        assertThat(r.instructions().flatMap(i -> i.string())).contains("Be brief.");
        ResponseUsage u = r.usage().orElseThrow();
        assertThat(u.inputTokens()).isPositive();
        assertThat(u.outputTokens()).isPositive();
        assertThat(u.totalTokens()).isEqualTo(u.inputTokens() + u.outputTokens());
        if (kind.recorded()) {
            assertThat(lastTranscript(kind)).containsSubsequence("system: Be brief.", "user: Hello there");
        }
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void streamsAResponseThatTheSdkAccumulatorAccepts(UpstreamKind kind) {
        ResponsesItSupport.Streamed s = stream(sdk(), ask(kind.model(), "Stream please").build());

        assertThat(s.types()).startsWith("response.created", "response.in_progress").endsWith("response.completed");
        assertThat(s.types()).contains("response.output_item.added", "response.content_part.added",
                "response.output_text.delta", "response.output_text.done", "response.content_part.done",
                "response.output_item.done");
        for (int i = 0; i < s.json().size(); i++) {
            assertThat(s.json().get(i).path("sequence_number").asInt()).as("sequence_number of event %d", i).isEqualTo(i);
        }
        String deltas = s.json().stream().filter(j -> j.path("type").asText().equals("response.output_text.delta"))
                .map(j -> j.path("delta").asText()).collect(Collectors.joining());

        ResponseAccumulator acc = ResponseAccumulator.create();
        s.events().forEach(acc::accumulate);
        Response done = acc.response();
        assertThat(text(done)).isEqualTo(deltas).contains("You said: Stream please");
        assertThat(done.usage().orElseThrow().totalTokens()).isPositive();

        Response stored = sdk().responses().retrieve(done.id());
        assertThat(tree(stored)).as("the stored response is the streamed one").isEqualTo(tree(done));
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void continuesAConversationWithPreviousResponseId(UpstreamKind kind) {
        Response first = sdk().responses().create(ask(kind.model(), "My name is Ada.").build());
        Response second = sdk().responses().create(ask(kind.model(), "What is my name?")
                .previousResponseId(first.id()).build());

        assertThat(second.previousResponseId()).contains(first.id());
        assertThat(text(second)).contains("You said: What is my name?");
        List<ResponseItem> items = sdk().responses().inputItems().list(InputItemListParams.builder()
                .responseId(second.id()).order(InputItemListParams.Order.ASC).build()).data();
        assertThat(items).extracting(i -> tree(i).at("/content/0/text").asText())
                .containsExactly("My name is Ada.", text(first), "What is my name?");
        if (kind.recorded()) {
            assertThat(lastTranscript(kind)).containsSubsequence("user: My name is Ada.", "assistant: " + text(first),
                    "user: What is my name?");
        }
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void aFunctionCallIsAnsweredWithAFunctionCallOutput(UpstreamKind kind) {
        Response first = sdk().responses().create(ask(kind.model(), "Weather in Oslo?").addTool(weatherTool()).build());
        ResponseFunctionToolCall call = onlyCall(first);

        Response second = sdk().responses().create(ResponseCreateParams.builder().model(kind.model())
                .previousResponseId(first.id()).addTool(weatherTool())
                .inputOfResponse(List.of(functionOutput(call.callId(), "{\"temp_c\":4}"))).build());

        assertThat(calls(second)).isEmpty();
        assertThat(text(second)).contains("{\"temp_c\":4}");
        if (kind.recorded()) {
            assertThat(lastTranscript(kind)).containsSubsequence("user: Weather in Oslo?",
                    "call get_weather " + call.callId(), "result " + call.callId() + ": {\"temp_c\":4}");
        }
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void aStreamedFunctionCallArrivesWhole(UpstreamKind kind) {
        ResponsesItSupport.Streamed s = stream(sdk(), ask(kind.model(), "Weather in Oslo?").addTool(weatherTool()).build());
        ResponseAccumulator acc = ResponseAccumulator.create();
        s.events().forEach(acc::accumulate);
        ResponseFunctionToolCall call = onlyCall(acc.response());

        JsonNode added = s.json().stream().filter(j -> j.path("type").asText().equals("response.output_item.added")
                && j.at("/item/type").asText().equals("function_call")).findFirst().orElseThrow();
        assertThat(added.at("/item/call_id").asText()).isEqualTo(call.callId());
        assertThat(added.at("/item/arguments").asText()).isEmpty();
        String deltas = s.json().stream().filter(j -> j.path("type").asText().equals("response.function_call_arguments.delta"))
                .map(j -> j.path("delta").asText()).collect(Collectors.joining());
        JsonNode done = s.json().stream().filter(j -> j.path("type").asText().equals("response.function_call_arguments.done"))
                .findFirst().orElseThrow();
        assertThat(deltas).isEqualTo(done.path("arguments").asText()).isEqualTo(call.arguments());
        assertThat(done.path("name").asText()).isEqualTo("get_weather");

        ResponsesItSupport.Streamed next = stream(sdk(), ResponseCreateParams.builder().model(kind.model())
                .previousResponseId(acc.response().id()).addTool(weatherTool())
                .inputOfResponse(List.of(functionOutput(call.callId(), "{\"temp_c\":4}"))).build());
        ResponseAccumulator acc2 = ResponseAccumulator.create();
        next.events().forEach(acc2::accumulate);
        assertThat(text(acc2.response())).contains("{\"temp_c\":4}");
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void reasoningArrivesAsSummariesAndTheChainContinues(UpstreamKind kind) {
        ResponseCreateParams params = ask(kind.model(ResponsesItSupport.THINK), "Think, then answer.")
                .reasoning(Reasoning.builder().effort(ReasoningEffort.LOW).summary(Reasoning.Summary.AUTO).build()).build();
        Response plain = sdk().responses().create(params);
        assertThat(reasoningItems(plain)).isNotEmpty();
        assertThat(reasoningItems(plain).getFirst().asReasoning().summary()).extracting(x -> x.text())
                .allSatisfy(t -> assertThat(t).isNotBlank());
        ResponseUsage usage = plain.usage().orElseThrow();
        assertThat(usage.outputTokensDetails().reasoningTokens()).isBetween(0L, usage.outputTokens());
        if (kind.reportsReasoningTokens()) {
            assertThat(usage.outputTokensDetails().reasoningTokens()).isPositive();
        }

        ResponsesItSupport.Streamed s = stream(sdk(), params);
        assertThat(s.types()).contains("response.reasoning_summary_part.added", "response.reasoning_summary_text.delta",
                "response.reasoning_summary_text.done", "response.reasoning_summary_part.done");

        Response next = sdk().responses().create(ask(kind.model(ResponsesItSupport.THINK), "And now?")
                .previousResponseId(plain.id()).build());
        assertThat(next.status()).contains(ResponseStatus.COMPLETED);
    }

    /**
     * A tool loop on a thinking model: the provider's signatures (Anthropic's on thinking, Gemini's on the
     * function call, checked by the fake like Gemini 3) must come back with the next turn, whether the
     * chain is stored or the caller replays the output items itself with {@code store: false}.
     */
    @ParameterizedTest
    @MethodSource("kinds")
    void aThinkingToolLoopGivesTheProviderItsSignaturesBack(UpstreamKind kind) throws Exception {
        String model = kind.model(ResponsesItSupport.THINK);
        Reasoning effort = Reasoning.builder().effort(ReasoningEffort.MEDIUM).build();
        Response first = sdk().responses().create(ask(model, "Weather in Oslo?").addTool(weatherTool())
                .reasoning(effort).build());
        ResponseFunctionToolCall call = onlyCall(first);

        Response stored = sdk().responses().create(ResponseCreateParams.builder().model(model)
                .previousResponseId(first.id()).addTool(weatherTool()).reasoning(effort)
                .inputOfResponse(List.of(functionOutput(call.callId(), "{\"temp_c\":4}"))).build());
        assertThat(text(stored)).contains("{\"temp_c\":4}");
        assertSignaturesCameBack(kind);

        ObjectNode replay = ResponsesItSupport.JSON.createObjectNode()
                .put("model", model).put("store", false);
        replay.putObject("reasoning").put("effort", "medium");
        replay.set("tools", ResponsesItSupport.JSON.valueToTree(List.of(tree(weatherTool()))));
        ArrayNode input = replay.putArray("input");
        input.addObject().put("role", "user").put("content", "Weather in Oslo?");
        tree(first).path("output").forEach(input::add);
        input.addObject().put("type", "function_call_output").put("call_id", call.callId()).put("output", "{\"temp_c\":4}");
        HttpResponse<String> r = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(gateway().openAiBaseUrl() + "/responses"))
                        .header("authorization", "Bearer " + gateway().apiKey())
                        .header("content-type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(replay.toString())).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).contains("temp_c");
        assertSignaturesCameBack(kind);
    }

    /** The last request of a signing kind echoed real signatures, never Google's "no signature" placeholder. */
    private static void assertSignaturesCameBack(UpstreamKind kind) {
        if (!kind.signsReasoning()) {
            return;
        }
        List<RecordedRequest> got = gateway().upstream().received(kind.upstreamModel(ResponsesItSupport.THINK));
        assertThat(Transcript.signatures(kind, got.getLast())).isNotEmpty()
                .doesNotContain("", "skip_thought_signature_validator");
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void aStoredResponseIsRetrievedListedAndDeleted(UpstreamKind kind) {
        Response r = sdk().responses().create(ask(kind.model(), "Keep this.").build());

        assertThat(tree(sdk().responses().retrieve(r.id()))).isEqualTo(tree(r));
        List<ResponseItem> items = sdk().responses().inputItems().list(r.id()).data();
        assertThat(items).hasSize(1);
        assertThat(items.getFirst().isResponseInputMessageItem()).isTrue();
        assertThat(tree(items.getFirst()).at("/content/0/text").asText()).isEqualTo("Keep this.");

        sdk().responses().delete(r.id());
        assertThatThrownBy(() -> sdk().responses().retrieve(r.id())).isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> sdk().responses().inputItems().list(r.id())).isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> sdk().responses().delete(r.id())).isInstanceOf(NotFoundException.class);
    }

    @ParameterizedTest
    @MethodSource("recordedKinds")
    void aStreamThatBreaksEndsWithAnErrorEventAndResponseFailed(UpstreamKind kind) {
        ResponsesItSupport.Streamed s = stream(sdk(), ask(kind.model(ResponsesItSupport.MIDFAIL), "Tell me a long story").build());

        assertThat(s.types()).startsWith("response.created").endsWith("error", "response.failed");
        JsonNode error = s.json().get(s.json().size() - 2);
        assertThat(error.path("message").asText()).isNotBlank();
        String id = s.json().getFirst().at("/response/id").asText();
        Response failed = sdk().responses().retrieve(id);
        assertThat(failed.status()).contains(ResponseStatus.FAILED);
        assertThat(failed.error()).isPresent();
    }

    private static ResponseFunctionToolCall onlyCall(Response r) {
        List<ResponseFunctionToolCall> calls = new ArrayList<>(calls(r));
        assertThat(calls).hasSize(1);
        ResponseFunctionToolCall call = calls.getFirst();
        assertThat(call.name()).isEqualTo("get_weather");
        assertThat(ResponsesItSupport.json(call.arguments()).has("city")).as("arguments %s", call.arguments()).isTrue();
        return call;
    }
}
