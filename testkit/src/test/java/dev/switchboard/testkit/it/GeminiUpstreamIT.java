package dev.switchboard.testkit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.genai.Chat;
import com.google.genai.Client;
import com.google.genai.ResponseStream;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.GenerateContentResponse;
import com.google.genai.types.Part;
import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.ReasoningEffort;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionFunctionTool;
import com.openai.models.chat.completions.ChatCompletionMessage;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import com.openai.models.chat.completions.ChatCompletionToolMessageParam;
import dev.switchboard.testkit.RecordedRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Gemini upstream behind the other client formats (OpenAI SDK; the messages format over raw HTTP), and
 * thought-signature fidelity: a function call's {@code thoughtSignature} issued by the fake reaches it again
 * on the same part, unchanged, whether the history came back through the GenAI SDK (plain, or a chat
 * session fed by a stream) or through a chat-completions client. The {@code -strictsig} fake rejects a
 * missing or altered signature, as Gemini 3 does.
 */
class GeminiUpstreamIT {
    @RegisterExtension
    static final SdkGateway<OpenAIClient> GATEWAY = GeminiItSupport.gateway(GeminiItSupport.CONFIG, ItSupport::client);

    private static final String STRICT_UPSTREAM = "g-tools-strictsig";

    private static Client genai;

    @BeforeAll
    static void connectGenAi() {
        genai = GeminiItSupport.client(GATEWAY.gateway());
    }

    /** A strict OpenAI tool, with the JSON-Schema keywords outside Google's OpenAPI subset that SDKs emit. */
    private static ChatCompletionFunctionTool weatherTool() {
        return ChatCompletionFunctionTool.builder().function(FunctionDefinition.builder()
                .name("get_weather")
                .description("Looks up the weather of a city")
                .strict(true)
                .parameters(FunctionParameters.builder()
                        .putAdditionalProperty("type", JsonValue.from("object"))
                        .putAdditionalProperty("properties", JsonValue.from(Map.of("city",
                                Map.of("type", "string", "description", "City name"))))
                        .putAdditionalProperty("required", JsonValue.from(List.of("city")))
                        .putAdditionalProperty("additionalProperties", JsonValue.from(false))
                        .build())
                .build()).build();
    }

    private static ChatCompletionCreateParams askWeather(String model) {
        return ChatCompletionCreateParams.builder().model(model).addUserMessage("What is the weather in Paris?")
                .addTool(weatherTool()).build();
    }

    /** The {@code thoughtSignature} on the first function-call part of the last model turn the fake received. */
    private static String sentSignature(RecordedRequest request) {
        JsonNode contents = request.json().path("contents");
        for (int i = contents.size() - 1; i >= 0; i--) {
            JsonNode turn = contents.get(i);
            if (turn.path("role").asText().equals("model")) {
                for (JsonNode part : turn.path("parts")) {
                    if (part.has("functionCall")) {
                        return part.path("thoughtSignature").asText(null);
                    }
                }
            }
        }
        throw new AssertionError("no model turn with a function call in " + request);
    }

    // --- OpenAI client, Gemini upstream ---

    @Test
    void openAiClientGetsTextFromAGeminiUpstream() {
        ChatCompletion completion = GATEWAY.client().chat().completions().create(ItSupport.ask("gm-basic", "Say hi to the tests"));

        assertThat(completion.model()).isEqualTo("gm-basic");
        ChatCompletion.Choice choice = completion.choices().getFirst();
        assertThat(choice.message().content()).contains("Hello from g-basic! You said: Say hi to the tests");
        assertThat(choice.finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.STOP);
        var usage = completion.usage().orElseThrow();
        assertThat(usage.totalTokens()).isEqualTo(usage.promptTokens() + usage.completionTokens());
        // a whole answer is streamed from the upstream too, so its first-byte and idle deadlines apply
        assertThat(GeminiItSupport.onlyRequest(GATEWAY.gateway(), "g-basic").path()).isEqualTo("/v1beta/models/g-basic:streamGenerateContent");
    }

    @Test
    void openAiClientStreamsFromAGeminiUpstream() {
        StringBuilder text = new StringBuilder();
        List<ChatCompletionChunk> chunks;
        try (StreamResponse<ChatCompletionChunk> stream = GATEWAY.client().chat().completions()
                .createStreaming(ItSupport.ask("gm-basic", "Say hi to the tests"))) {
            chunks = stream.stream().toList();
        }
        chunks.forEach(c -> c.choices().forEach(ch -> ch.delta().content().ifPresent(text::append)));

        assertThat(text.toString()).isEqualTo("Hello from g-basic! You said: Say hi to the tests");
        assertThat(chunks.getLast().usage()).isPresent();
        RecordedRequest sent = GeminiItSupport.onlyRequest(GATEWAY.gateway(), "g-basic");
        assertThat(sent.path()).endsWith(":streamGenerateContent");
        assertThat(sent.query()).isEqualTo("alt=sse");
    }

    @Test
    void openAiToolLoopOverAGeminiUpstreamConvertsTheSchemaAndNamesTheFunctionResponse() {
        ChatCompletion first = GATEWAY.client().chat().completions().create(askWeather("gm-tools"));

        ChatCompletionMessage assistant = first.choices().getFirst().message();
        ChatCompletionMessageFunctionToolCall call = assistant.toolCalls().orElseThrow().getFirst().asFunction();
        assertThat(call.id()).isNotBlank();
        assertThat(call.function().name()).isEqualTo("get_weather");
        assertThat(ItSupport.json(call.function().arguments()).path("city").asText()).isEqualTo("Paris");
        assertThat(first.choices().getFirst().finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.TOOL_CALLS);
        JsonNode declaration = GeminiItSupport.onlyRequest(GATEWAY.gateway(), "g-tools").json().at("/tools/0/functionDeclarations/0");
        assertThat(declaration.path("name").asText()).isEqualTo("get_weather");
        assertThat(declaration.has("parameters")).as("Google's OpenAPI subset would reject additionalProperties").isFalse();
        assertThat(declaration.at("/parametersJsonSchema/properties/city/type").asText()).isEqualTo("string");
        assertThat(declaration.at("/parametersJsonSchema/required/0").asText()).isEqualTo("city");

        GATEWAY.gateway().upstream().reset();
        ChatCompletion answer = GATEWAY.client().chat().completions().create(askWeather("gm-tools").toBuilder()
                .addMessage(assistant)
                .addMessage(ChatCompletionToolMessageParam.builder().toolCallId(call.id()).content("sunny, 21 C").build())
                .build());

        assertThat(answer.choices().getFirst().message().content()).contains("Tool result received: sunny, 21 C");
        JsonNode contents = GeminiItSupport.onlyRequest(GATEWAY.gateway(), "g-tools").json().path("contents");
        JsonNode response = contents.get(contents.size() - 1).at("/parts/0/functionResponse");
        assertThat(response.path("name").asText()).as("the tool message has only the call id; the name comes from the call")
                .isEqualTo("get_weather");
        assertThat(contents.get(contents.size() - 1).path("role").asText()).isEqualTo("user");
        assertThat(contents.get(contents.size() - 2).at("/parts/0/functionCall/name").asText()).isEqualTo("get_weather");
    }

    @Test
    void openAiClientSeesTheReasoningOfAGeminiUpstream() {
        ChatCompletion completion = GATEWAY.client().chat().completions().create(ChatCompletionCreateParams.builder()
                .model("gm-think").addUserMessage("hi").reasoningEffort(ReasoningEffort.LOW).build());

        ChatCompletionMessage message = completion.choices().getFirst().message();
        assertThat(message.content()).contains("Hello from g-think-reasoning! You said: hi");
        JsonValue reasoning = message._additionalProperties().getOrDefault("reasoning",
                message._additionalProperties().get("reasoning_content"));
        assertThat(reasoning).isNotNull();
        assertThat(reasoning.toString()).contains("step by step");
        JsonNode thinking = GeminiItSupport.onlyRequest(GATEWAY.gateway(), "g-think-reasoning").json().at("/generationConfig/thinkingConfig");
        assertThat(thinking.path("includeThoughts").asBoolean()).isTrue();
        assertThat(thinking.path("thinkingLevel").asText()).as("a name that is not gemini-1/2 gets a level").isEqualTo("LOW");
    }

    /**
     * Answers like Gemini without call ids: two parallel calls with no {@code id}, or, once the results came
     * back, a text naming the function responses it got (name and id) in order.
     */
    private static void answerWithoutCallIds(RecordedRequest request, dev.switchboard.testkit.RawExchange exchange)
            throws java.io.IOException {
        JsonNode contents = request.json().path("contents");
        com.fasterxml.jackson.databind.node.ObjectNode body = ItSupport.JSON.createObjectNode();
        com.fasterxml.jackson.databind.node.ObjectNode candidate = body.putArray("candidates").addObject();
        com.fasterxml.jackson.databind.node.ArrayNode parts = candidate.putObject("content").put("role", "model").putArray("parts");
        StringBuilder got = new StringBuilder();
        for (JsonNode part : contents.get(contents.size() - 1).path("parts")) {
            JsonNode r = part.path("functionResponse");
            if (r.isObject()) {
                got.append(got.isEmpty() ? "" : ", ").append(r.path("name").asText()).append('=').append(r.at("/response/output").asText());
            }
        }
        if (got.isEmpty()) {
            parts.addObject().putObject("functionCall").put("name", "get_weather").putObject("args").put("city", "Paris");
            parts.addObject().putObject("functionCall").put("name", "get_time").putObject("args").put("timezone", "CET");
        } else {
            parts.addObject().put("text", "Got " + got);
        }
        candidate.put("finishReason", "STOP");
        body.putObject("usageMetadata").put("promptTokenCount", 10).put("candidatesTokenCount", 5).put("totalTokenCount", 15);
        body.put("modelVersion", "g-idless").put("responseId", "resp-idless-1");
        exchange.respondJson(200, body);
    }

    @Test
    void callsAGeminiUpstreamSendsWithoutIdsGetStableIdsAndTheirResultsFindTheirNames() {
        GATEWAY.gateway().upstream().script("g-idless", GeminiUpstreamIT::answerWithoutCallIds);
        ChatCompletionCreateParams ask = ChatCompletionCreateParams.builder().model("gm-idless")
                .addUserMessage("Weather and time in Paris?").addTool(weatherTool())
                .addTool(ChatCompletionFunctionTool.builder().function(FunctionDefinition.builder().name("get_time")
                        .parameters(FunctionParameters.builder().putAdditionalProperty("type", JsonValue.from("object")).build())
                        .build()).build())
                .build();

        ChatCompletion first = GATEWAY.client().chat().completions().create(ask);
        ChatCompletion again = GATEWAY.client().chat().completions().create(ask);

        ChatCompletionMessage assistant = first.choices().getFirst().message();
        List<String> ids = assistant.toolCalls().orElseThrow().stream().map(c -> c.asFunction().id()).toList();
        assertThat(ids).hasSize(2).doesNotHaveDuplicates().allSatisfy(id -> assertThat(id).isNotBlank());
        assertThat(again.choices().getFirst().message().toolCalls().orElseThrow().stream().map(c -> c.asFunction().id()))
                .as("the same answer gets the same ids").containsExactlyElementsOf(ids);

        ChatCompletion answer = GATEWAY.client().chat().completions().create(ask.toBuilder()
                .addMessage(assistant)
                // answered out of order: each result must still find its own call's name
                .addMessage(ChatCompletionToolMessageParam.builder().toolCallId(ids.get(1)).content("09:00").build())
                .addMessage(ChatCompletionToolMessageParam.builder().toolCallId(ids.get(0)).content("sunny").build())
                .build());

        assertThat(answer.choices().getFirst().message().content()).contains("Got get_time=09:00, get_weather=sunny");
    }

    // --- thought signatures ---

    @Test
    void genaiSdkFunctionCallSignatureReachesTheUpstreamUnchangedOnTheSamePart() {
        Content question = GeminiItSupport.user("What is the weather in Paris?");
        GenerateContentResponse first = genai.models.generateContent("gm-strict", List.of(question), GeminiItSupport.withWeather(true));

        Content modelTurn = first.candidates().orElseThrow().getFirst().content().orElseThrow();
        Part callPart = modelTurn.parts().orElseThrow().stream().filter(p -> p.functionCall().isPresent()).findFirst().orElseThrow();
        String issued = Base64.getEncoder().encodeToString(callPart.thoughtSignature().orElseThrow());
        assertThat(modelTurn.parts().orElseThrow().getFirst().thought()).contains(true);
        FunctionCall call = callPart.functionCall().get();

        GATEWAY.gateway().upstream().reset();
        Content result = Content.builder().role("user").parts(List.of(Part.builder().functionResponse(
                FunctionResponse.builder().name("get_weather").id(call.id().orElseThrow())
                        .response(Map.of("output", "sunny")).build()).build())).build();
        GenerateContentResponse answer = genai.models.generateContent("gm-strict", List.of(question, modelTurn, result),
                GeminiItSupport.withWeather(true));

        assertThat(answer.text()).isEqualTo("Tool result received: sunny");
        assertThat(sentSignature(GeminiItSupport.onlyRequest(GATEWAY.gateway(), STRICT_UPSTREAM))).isEqualTo(issued);
    }

    @Test
    void aChatSessionFedByAStreamKeepsTheSignature() {
        Chat chat = genai.chats.create("gm-strict", GeminiItSupport.withWeather(true));
        List<GenerateContentResponse> chunks = new ArrayList<>();
        try (ResponseStream<GenerateContentResponse> stream = chat.sendMessageStream("What is the weather in Paris?")) {
            stream.forEach(chunks::add);
        }
        Part callPart = chunks.stream().flatMap(c -> c.parts().stream()).filter(p -> p.functionCall().isPresent())
                .findFirst().orElseThrow();
        String issued = Base64.getEncoder().encodeToString(callPart.thoughtSignature().orElseThrow());

        GATEWAY.gateway().upstream().reset();
        GenerateContentResponse answer = chat.sendMessage(Content.builder().role("user").parts(List.of(
                Part.fromFunctionResponse("get_weather", Map.of("output", "cloudy")))).build());

        assertThat(answer.text()).isEqualTo("Tool result received: cloudy");
        assertThat(sentSignature(GeminiItSupport.onlyRequest(GATEWAY.gateway(), STRICT_UPSTREAM))).isEqualTo(issued);
    }

    @Test
    void aSignatureAlteredByTheClientIsRefusedByTheUpstreamAndThatReachesTheCaller() {
        Content question = GeminiItSupport.user("What is the weather in Paris?");
        GenerateContentResponse first = genai.models.generateContent("gm-strict", List.of(question), GeminiItSupport.withWeather(true));
        Content modelTurn = first.candidates().orElseThrow().getFirst().content().orElseThrow();
        List<Part> altered = modelTurn.parts().orElseThrow().stream().map(p -> p.functionCall().isPresent()
                ? p.toBuilder().thoughtSignature("forged".getBytes(java.nio.charset.StandardCharsets.UTF_8)).build() : p).toList();

        com.google.genai.errors.ClientException e = org.junit.jupiter.api.Assertions.assertThrows(
                com.google.genai.errors.ClientException.class,
                () -> genai.models.generateContent("gm-strict", List.of(question, modelTurn.toBuilder().parts(altered).build(),
                        Content.builder().role("user").parts(List.of(Part.fromFunctionResponse("get_weather",
                                Map.of("output", "sunny")))).build()), GeminiItSupport.withWeather(true)));

        assertThat(e.code()).isEqualTo(400);
        assertThat(e.message()).contains("Corrupted thought signature");
    }

    @Test
    void theSignatureSurvivesARoundTripThroughAChatCompletionsClient() {
        ChatCompletionCreateParams ask = askWeather("gm-strict").toBuilder().reasoningEffort(ReasoningEffort.LOW).build();
        ChatCompletion first = GATEWAY.client().chat().completions().create(ask);
        ChatCompletionMessage assistant = first.choices().getFirst().message();
        ChatCompletionMessageFunctionToolCall call = assistant.toolCalls().orElseThrow().getFirst().asFunction();
        JsonNode carried = ItSupport.JSON.valueToTree(call._additionalProperties().get("extra_content").convert(Object.class));
        String issued = carried.at("/google/thought_signature").asText();
        assertThat(issued).as("the signature rides on the tool call, where Gemini's own compatible API puts it").isNotBlank();

        GATEWAY.gateway().upstream().reset();
        ChatCompletion answer = GATEWAY.client().chat().completions().create(ask.toBuilder()
                .addMessage(assistant)
                .addMessage(ChatCompletionToolMessageParam.builder().toolCallId(call.id()).content("sunny").build())
                .build());

        assertThat(answer.choices().getFirst().message().content()).contains("Tool result received: sunny");
        assertThat(sentSignature(GeminiItSupport.onlyRequest(GATEWAY.gateway(), STRICT_UPSTREAM))).isEqualTo(issued);
    }

    @Test
    void aStreamedToolCallCarriesTheSignatureToAChatCompletionsClientAndBack() {
        HttpResponse<String> streamed = ItSupport.post(GATEWAY.gateway(), "/v1/chat/completions", ItSupport.bearer(GATEWAY.gateway().apiKey()), """
                {"model":"gm-strict","stream":true,"reasoning_effort":"low",
                 "messages":[{"role":"user","content":"What is the weather in Paris?"}],
                 "tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object",
                   "properties":{"city":{"type":"string"}},"required":["city"]}}}]}""");
        String id = null;
        String name = null;
        String signature = null;
        StringBuilder arguments = new StringBuilder();
        for (String data : ItSupport.sseData(streamed.body())) {
            if (data.equals("[DONE]")) {
                continue;
            }
            for (JsonNode call : ItSupport.json(data).at("/choices/0/delta/tool_calls")) {
                id = call.path("id").isTextual() ? call.path("id").asText() : id;
                name = call.at("/function/name").isTextual() ? call.at("/function/name").asText() : name;
                arguments.append(call.at("/function/arguments").asText(""));
                JsonNode sig = call.at("/extra_content/google/thought_signature");
                signature = sig.isTextual() ? sig.asText() : signature;
            }
        }
        assertThat(signature).as("the streamed call carries the signature").isNotBlank();

        GATEWAY.gateway().upstream().reset();
        HttpResponse<String> answer = ItSupport.post(GATEWAY.gateway(), "/v1/chat/completions", ItSupport.bearer(GATEWAY.gateway().apiKey()), """
                {"model":"gm-strict","reasoning_effort":"low","messages":[
                  {"role":"user","content":"What is the weather in Paris?"},
                  {"role":"assistant","content":null,"tool_calls":[{"id":"%s","type":"function",
                    "function":{"name":"%s","arguments":%s},"extra_content":{"google":{"thought_signature":"%s"}}}]},
                  {"role":"tool","tool_call_id":"%s","content":"sunny"}],
                 "tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object",
                   "properties":{"city":{"type":"string"}},"required":["city"]}}}]}"""
                .formatted(id, name, ItSupport.JSON.valueToTree(arguments.toString()), signature, id));

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(ItSupport.json(answer.body()).at("/choices/0/message/content").asText()).isEqualTo("Tool result received: sunny");
        assertThat(sentSignature(GeminiItSupport.onlyRequest(GATEWAY.gateway(), STRICT_UPSTREAM))).isEqualTo(signature);
    }

    @Test
    void historyFromAnotherFormatWithoutSignaturesGetsGooglesPlaceholder() {
        ChatCompletion answer = GATEWAY.client().chat().completions().create(askWeather("gm-strict").toBuilder()
                .addMessage(com.openai.models.chat.completions.ChatCompletionAssistantMessageParam.builder()
                        .addToolCall(ChatCompletionMessageFunctionToolCall.builder().id("call_from_elsewhere")
                                .function(ChatCompletionMessageFunctionToolCall.Function.builder()
                                        .name("get_weather").arguments("{\"city\":\"Paris\"}").build())
                                .build())
                        .build())
                .addMessage(ChatCompletionToolMessageParam.builder().toolCallId("call_from_elsewhere").content("sunny").build())
                .build());

        assertThat(answer.choices().getFirst().message().content()).contains("Tool result received: sunny");
        assertThat(sentSignature(GeminiItSupport.onlyRequest(GATEWAY.gateway(), STRICT_UPSTREAM))).isEqualTo("skip_thought_signature_validator");
    }

    // --- messages-format client, Gemini upstream ---

    private static HttpResponse<String> messages(String body) {
        return ItSupport.post(GATEWAY.gateway(), "/v1/messages", Map.of("x-api-key", GATEWAY.gateway().apiKey(), "anthropic-version", "2023-06-01",
                "content-type", "application/json"), body);
    }

    @Test
    void messagesClientGetsTextAndAToolLoopFromAGeminiUpstream() {
        HttpResponse<String> text = messages("""
                {"model":"gm-basic","max_tokens":100,"messages":[{"role":"user","content":"hi"}]}""");
        assumeTrue(text.statusCode() != 404 || !text.body().contains("No route"),
                "POST /v1/messages is not in this build (the messages endpoint is built on another branch); runs once merged");

        assertThat(text.statusCode()).isEqualTo(200);
        JsonNode message = ItSupport.json(text.body());
        assertThat(message.path("model").asText()).isEqualTo("gm-basic");
        assertThat(message.at("/content/0/text").asText()).isEqualTo("Hello from g-basic! You said: hi");
        assertThat(message.path("stop_reason").asText()).isEqualTo("end_turn");

        String tools = "\"tools\":[{\"name\":\"get_weather\",\"description\":\"Weather\",\"input_schema\":{\"type\":\"object\","
                + "\"properties\":{\"city\":{\"type\":\"string\"}},\"required\":[\"city\"]}}]";
        JsonNode call = ItSupport.json(messages("{\"model\":\"gm-tools\",\"max_tokens\":100," + tools
                + ",\"messages\":[{\"role\":\"user\",\"content\":\"Weather in Paris?\"}]}").body());
        assertThat(call.path("stop_reason").asText()).isEqualTo("tool_use");
        JsonNode toolUse = null;
        for (JsonNode block : call.path("content")) {
            if (block.path("type").asText().equals("tool_use")) {
                toolUse = block;
            }
        }
        assertThat(toolUse).isNotNull();
        assertThat(toolUse.path("name").asText()).isEqualTo("get_weather");
        assertThat(toolUse.at("/input/city").asText()).isEqualTo("Paris");

        GATEWAY.gateway().upstream().reset();
        HttpResponse<String> answer = messages("{\"model\":\"gm-tools\",\"max_tokens\":100," + tools + ",\"messages\":["
                + "{\"role\":\"user\",\"content\":\"Weather in Paris?\"},"
                + "{\"role\":\"assistant\",\"content\":" + call.path("content") + "},"
                + "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"" + toolUse.path("id").asText()
                + "\",\"content\":\"sunny\"}]}]}");
        assertThat(ItSupport.json(answer.body()).at("/content/0/text").asText()).isEqualTo("Tool result received: sunny");
        JsonNode contents = GeminiItSupport.onlyRequest(GATEWAY.gateway(), "g-tools").json().path("contents");
        assertThat(contents.get(contents.size() - 1).at("/parts/0/functionResponse/name").asText()).isEqualTo("get_weather");
    }

    @Test
    void messagesClientStreamsFromAGeminiUpstream() {
        HttpResponse<String> response = messages("""
                {"model":"gm-basic","max_tokens":100,"stream":true,"messages":[{"role":"user","content":"hi"}]}""");
        assumeTrue(response.statusCode() != 404 || !response.body().contains("No route"),
                "POST /v1/messages is not in this build (the messages endpoint is built on another branch); runs once merged");

        assertThat(response.statusCode()).isEqualTo(200);
        StringBuilder text = new StringBuilder();
        List<String> types = new ArrayList<>();
        for (String data : ItSupport.sseData(response.body())) {
            JsonNode event = ItSupport.json(data);
            types.add(event.path("type").asText());
            if (event.at("/delta/type").asText().equals("text_delta")) {
                text.append(event.at("/delta/text").asText());
            }
        }
        assertThat(text.toString()).isEqualTo("Hello from g-basic! You said: hi");
        assertThat(types.getFirst()).isEqualTo("message_start");
        assertThat(types.getLast()).isEqualTo("message_stop");
    }
}
