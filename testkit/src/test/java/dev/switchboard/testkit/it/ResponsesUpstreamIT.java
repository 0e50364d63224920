package dev.switchboard.testkit.it;

import static dev.switchboard.testkit.GatewayConfigSupport.SLOWER;
import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.provider;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.errors.BadRequestException;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.ReasoningEffort;
import com.openai.models.ResponseFormatJsonSchema;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionFunctionTool;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import com.openai.models.chat.completions.ChatCompletionToolMessageParam;
import dev.switchboard.testkit.GatewayConfigSupport.Model;
import dev.switchboard.testkit.GatewayExtension;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestGateway;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A {@code type: openai-responses} provider behind the chat-completions endpoint, judged by the official
 * OpenAI SDK on the client side and by the fake's Responses API on the other: plain and streamed answers,
 * a tool round trip, reasoning, structured output, stop sequences, failover to and from other formats
 * within one pool, failures before and after the first content, and the upstream's 4xx passed on.
 */
class ResponsesUpstreamIT {
    private static final String KEY = "sk-upstream-responses-0123456789";

    @RegisterExtension
    static final GatewayExtension GATEWAY = new GatewayExtension(TestGateway.DEFAULT_HEADER
            + providers(
                    provider("p-resp", "openai-responses", "${UPSTREAM_OPENAI}", SLOWER, KEY),
                    provider("p-chat", "openai", "${UPSTREAM_OPENAI}", SLOWER, KEY),
                    provider("p-claude", "anthropic", "${UPSTREAM}", SLOWER, KEY))
            + models(
                    priced("r-plain").supports("tools", "json").route("p-resp/up-r-plain-noreason"),
                    priced("r-think").supports("tools", "reasoning")
                            .with("reasoning: {family: always, efforts: [low, medium, high]}", "refused_params: [temperature, top_p]")
                            .route("p-resp/up-r-think"),
                    priced("r-then-chat").route("p-resp/up-r-down-fail503", "p-chat/up-c-rescue"),
                    priced("chat-then-r").route("p-chat/up-c-down-fail500", "p-resp/up-r-rescue"),
                    priced("r-failed-then-claude").route("p-resp/up-r-gone-failed", "p-claude/up-claude-rescue"),
                    priced("r-midfail").route("p-resp/up-r-cut-midfail", "p-chat/up-c-never"),
                    priced("r-refuses").route("p-resp/up-r-balk-refusal"),
                    priced("r-rejects").route("p-resp/up-r-picky-fail400", "p-chat/up-c-never-asked")));

    private static Model priced(String name) {
        return model(name).limits(100000, 4096).pricing("{input: 1, output: 2}");
    }

    private static TestGateway gateway;
    private static OpenAIClient sdk;

    @BeforeAll
    static void connect() {
        gateway = GATEWAY.gateway();
        gateway.upstream().requireKey(KEY);
        sdk = ItSupport.client(gateway);
    }

    private static JsonNode lastResponsesRequest(String upstreamModel) {
        List<RecordedRequest> got = gateway.upstream().received(upstreamModel);
        assertThat(got).as("requests for %s", upstreamModel).isNotEmpty();
        RecordedRequest last = got.getLast();
        assertThat(last.path()).isEqualTo("/v1/responses");
        assertThat(last.header("authorization")).contains("Bearer " + KEY);
        return last.json();
    }

    private static ChatCompletionFunctionTool weather() {
        return ChatCompletionFunctionTool.builder().function(FunctionDefinition.builder().name("get_weather")
                .parameters(FunctionParameters.builder()
                        .putAdditionalProperty("type", JsonValue.from("object"))
                        .putAdditionalProperty("properties", JsonValue.from(Map.of("city", Map.of("type", "string"))))
                        .putAdditionalProperty("required", JsonValue.from(List.of("city")))
                        .build())
                .build()).build();
    }

    private static String streamedText(ChatCompletionCreateParams params, List<ChatCompletionChunk> into) {
        try (StreamResponse<ChatCompletionChunk> stream = sdk.chat().completions().createStreaming(params)) {
            stream.stream().forEach(into::add);
        }
        return into.stream().flatMap(c -> c.choices().stream()).map(c -> c.delta().content().orElse(""))
                .collect(Collectors.joining());
    }

    @Test
    void aPlainAnswerComesFromAStatelessResponsesRequest() {
        ChatCompletion c = sdk.chat().completions().create(ItSupport.ask("r-plain", "Hello there"));

        assertThat(c.choices().getFirst().message().content()).contains("Hello from up-r-plain-noreason! You said: Hello there");
        assertThat(c.model()).isEqualTo("r-plain");
        assertThat(c.usage().orElseThrow().totalTokens()).isPositive();
        JsonNode sent = lastResponsesRequest("up-r-plain-noreason");
        assertThat(sent.path("store").asBoolean(true)).isFalse();
        assertThat(sent.has("include")).as("no encrypted reasoning for a model that does not reason").isFalse();
        assertThat(sent.path("input").path(0).path("role").asText()).isEqualTo("user");
    }

    @Test
    void aStreamedAnswerArrivesAsChatCompletionChunksWithUsage() {
        List<ChatCompletionChunk> chunks = new ArrayList<>();
        String text = streamedText(ChatCompletionCreateParams.builder().model("r-plain").addUserMessage("Stream please")
                .build(), chunks);

        assertThat(text).isEqualTo("Hello from up-r-plain-noreason! You said: Stream please");
        assertThat(chunks.getLast().usage()).isPresent();
        assertThat(lastResponsesRequest("up-r-plain-noreason").path("stream").asBoolean()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aToolRoundTripKeepsTheCallIdAndTheModelsReasoning(boolean streamed) {
        ChatCompletionCreateParams ask = ChatCompletionCreateParams.builder().model("r-think")
                .addUserMessage("What is the weather in Oslo?").addTool(weather()).reasoningEffort(ReasoningEffort.LOW)
                .build();
        ChatCompletion first = sdk.chat().completions().create(ask);
        ChatCompletionMessageFunctionToolCall call = first.choices().getFirst().message().toolCalls().orElseThrow()
                .getFirst().asFunction();
        assertThat(call.function().name()).isEqualTo("get_weather");
        assertThat(first.choices().getFirst().finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.TOOL_CALLS);
        assertThat(first.usage().orElseThrow().completionTokensDetails().orElseThrow().reasoningTokens()).hasValueSatisfying(
                n -> assertThat(n).isPositive());

        ChatCompletionCreateParams answer = ask.toBuilder()
                .addMessage(first.choices().getFirst().message().toParam())
                .addMessage(ChatCompletionToolMessageParam.builder().toolCallId(call.id()).content("4 degrees").build())
                .build();
        String text = streamed ? streamedText(answer, new ArrayList<>())
                : sdk.chat().completions().create(answer).choices().getFirst().message().content().orElse("");

        assertThat(text).isEqualTo("Tool result received: 4 degrees");
        JsonNode items = lastResponsesRequest("up-r-think").path("input");
        assertThat(items.findValues("type")).extracting(JsonNode::asText).contains("reasoning", "function_call",
                "function_call_output");
        assertThat(items.findValues("call_id")).extracting(JsonNode::asText).containsOnly(call.id());
    }

    @Test
    void reasoningIsShownAndCounted() {
        ChatCompletion c = sdk.chat().completions().create(ChatCompletionCreateParams.builder().model("r-think")
                .addUserMessage("Think first").reasoningEffort(ReasoningEffort.MEDIUM).temperature(0.5).build());

        JsonValue reasoning = c.choices().getFirst().message()._additionalProperties().get("reasoning_content");
        assertThat(reasoning).isNotNull();
        assertThat(reasoning.asString()).hasValue("Let me think about this request step by step before answering.");
        JsonNode sent = lastResponsesRequest("up-r-think");
        assertThat(sent.at("/reasoning/effort").asText()).isEqualTo("medium");
        assertThat(sent.at("/reasoning/summary").asText()).isEqualTo("auto");
        assertThat(sent.has("temperature")).as("the model refuses it").isFalse();
    }

    @Test
    void structuredOutputReachesTheUpstreamAsTextFormat() {
        ChatCompletionCreateParams params = ChatCompletionCreateParams.builder().model("r-plain")
                .addUserMessage("Weather as JSON")
                .responseFormat(ResponseFormatJsonSchema.builder().jsonSchema(ResponseFormatJsonSchema.JsonSchema.builder()
                        .name("weather").strict(true)
                        .schema(ResponseFormatJsonSchema.JsonSchema.Schema.builder()
                                .putAdditionalProperty("type", JsonValue.from("object"))
                                .putAdditionalProperty("properties", JsonValue.from(Map.of("city", Map.of("type", "string"))))
                                .putAdditionalProperty("required", JsonValue.from(List.of("city")))
                                .putAdditionalProperty("additionalProperties", JsonValue.from(false))
                                .build())
                        .build()).build())
                .build();
        sdk.chat().completions().create(params);

        JsonNode format = lastResponsesRequest("up-r-plain-noreason").at("/text/format");
        assertThat(format.path("type").asText()).isEqualTo("json_schema");
        assertThat(format.path("name").asText()).isEqualTo("weather");
        assertThat(format.at("/schema/properties/city/type").asText()).isEqualTo("string");
    }

    @Test
    void stopSequencesAreAppliedByTheGateway() {
        ChatCompletion c = sdk.chat().completions().create(ChatCompletionCreateParams.builder().model("r-plain")
                .addUserMessage("Hello there").stop("You said").build());

        assertThat(c.choices().getFirst().message().content()).contains("Hello from up-r-plain-noreason! ");
        assertThat(c.choices().getFirst().message().content().orElseThrow()).doesNotContain("You said");
        assertThat(c.choices().getFirst().finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.STOP);
        assertThat(lastResponsesRequest("up-r-plain-noreason").has("stop")).isFalse();

        List<ChatCompletionChunk> chunks = new ArrayList<>();
        String streamed = streamedText(ChatCompletionCreateParams.builder().model("r-plain").addUserMessage("Hello there")
                .stop("You said").build(), chunks);
        assertThat(streamed).isEqualTo("Hello from up-r-plain-noreason! ");
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aPoolFailsOverFromAResponsesUpstreamToAChatUpstreamAndBack(boolean streamed) {
        ChatCompletionCreateParams toChat = ItSupport.ask("r-then-chat", "Hello");
        ChatCompletionCreateParams toResponses = ItSupport.ask("chat-then-r", "Hello");
        String viaChat = streamed ? streamedText(toChat, new ArrayList<>())
                : sdk.chat().completions().create(toChat).choices().getFirst().message().content().orElse("");
        String viaResponses = streamed ? streamedText(toResponses, new ArrayList<>())
                : sdk.chat().completions().create(toResponses).choices().getFirst().message().content().orElse("");

        assertThat(viaChat).isEqualTo("Hello from up-c-rescue! You said: Hello");
        assertThat(viaResponses).isEqualTo("Hello from up-r-rescue! You said: Hello");
        assertThat(gateway.upstream().received("up-r-down-fail503")).singleElement()
                .satisfies(r -> assertThat(r.path()).isEqualTo("/v1/responses"));
        assertThat(gateway.upstream().received("up-c-rescue")).singleElement()
                .satisfies(r -> assertThat(r.path()).isEqualTo("/v1/chat/completions"));
        assertThat(lastResponsesRequest("up-r-rescue").path("input").path(0).path("role").asText()).isEqualTo("user");
    }

    @Test
    void aResponseThatFailsBeforeItsFirstContentFailsOverToAnotherFormat() {
        List<ChatCompletionChunk> chunks = new ArrayList<>();
        String text = streamedText(ItSupport.ask("r-failed-then-claude", "Hello"), chunks);

        assertThat(text).isEqualTo("Hello from up-claude-rescue! You said: Hello");
        assertThat(gateway.upstream().received("up-r-gone-failed")).hasSize(1);
        assertThat(chunks).allSatisfy(c -> assertThat(c.model()).isEqualTo("r-failed-then-claude"));
    }

    @Test
    void aStreamThatFailsAfterItsFirstContentIsReportedInBand() {
        List<String> data = ItSupport.sseData(ItSupport.post(gateway, "/v1/chat/completions",
                ItSupport.bearer(gateway.apiKey()),
                "{\"model\":\"r-midfail\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"Tell me a long story\"}]}")
                .body());

        assertThat(data.getLast()).isEqualTo("[DONE]");
        JsonNode last = ItSupport.json(data.get(data.size() - 2));
        assertThat(last.path("error").path("message").asText()).contains("The server had an error");
        assertThat(gateway.upstream().received("up-c-never")).as("no failover after content was sent").isEmpty();
    }

    @Test
    void theUpstreamsRefusalOfTheRequestReachesTheCaller() {
        assertThatThrownBy(() -> sdk.chat().completions().create(ItSupport.ask("r-rejects", "Hello")))
                .isInstanceOfSatisfying(BadRequestException.class,
                        e -> assertThat(e.getMessage()).contains("scripted failure 400"));
        assertThat(gateway.upstream().received("up-c-never-asked")).isEmpty();
    }

    @Test
    void aRefusalStaysARefusalForTheClientAndOnTheNextTurnOfAChain() {
        ChatCompletion plain = sdk.chat().completions().create(ItSupport.ask("r-refuses", "Pick a lock"));
        assertThat(plain.choices().getFirst().message().refusal()).hasValueSatisfying(r -> assertThat(r).isNotEmpty());
        assertThat(plain.choices().getFirst().message().content().orElse("")).isEmpty();

        List<ChatCompletionChunk> chunks = new ArrayList<>();
        assertThat(streamedText(ItSupport.ask("r-refuses", "Pick a lock"), chunks)).isEmpty();
        String streamedRefusal = chunks.stream().flatMap(c -> c.choices().stream())
                .map(c -> c.delta().refusal().orElse("")).collect(Collectors.joining());
        assertThat(streamedRefusal).isEqualTo(plain.choices().getFirst().message().refusal().orElseThrow());

        var first = ItSupport.post(gateway, "/v1/responses", ItSupport.bearer(gateway.apiKey()), """
                {"model": "r-refuses", "input": "Pick a lock"}""");
        assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
        JsonNode shown = ItSupport.json(first.body()).at("/output/0/content/0");
        assertThat(shown.path("type").asText()).isEqualTo("refusal");
        String id = ItSupport.json(first.body()).path("id").asText();

        var next = ItSupport.post(gateway, "/v1/responses", ItSupport.bearer(gateway.apiKey()), """
                {"model": "r-plain", "previous_response_id": "%s", "input": "How do locks work?"}""".formatted(id));
        assertThat(next.statusCode()).as(next.body()).isEqualTo(200);
        JsonNode replayed = lastResponsesRequest("up-r-plain-noreason").path("input").get(1);
        assertThat(replayed.path("role").asText()).isEqualTo("assistant");
        assertThat(replayed.at("/content/0/type").asText()).isEqualTo("refusal");
        assertThat(replayed.at("/content/0/refusal").asText()).isEqualTo(shown.path("refusal").asText());
    }
}
