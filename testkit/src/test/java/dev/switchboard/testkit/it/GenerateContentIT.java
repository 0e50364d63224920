package dev.switchboard.testkit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.genai.Client;
import com.google.genai.ResponseStream;
import com.google.genai.types.Content;
import com.google.genai.types.FinishReason;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.GenerateContentConfig;
import com.google.genai.types.GenerateContentResponse;
import com.google.genai.types.GenerateContentResponseUsageMetadata;
import com.google.genai.types.Part;
import com.google.genai.types.ThinkingConfig;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.it.GeminiItSupport.Upstream;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The official Google GenAI Java SDK at the gateway's content-parts endpoints, with the answer coming from
 * each kind of upstream (Gemini, OpenAI, Anthropic fakes): text, streams, a function call and its response,
 * thinking, a system instruction. Each case runs once per upstream kind.
 */
class GenerateContentIT {
    @RegisterExtension
    static final SdkGateway<Client> GATEWAY = GeminiItSupport.gateway(GeminiItSupport.CONFIG, GeminiItSupport::client);

    private static final String HELLO = "Say hi to the tests";

    private static Boolean anthropicAdapter;

    /**
     * The Anthropic upstream adapter is built on another branch. Until it is merged the gateway answers 503
     * for Anthropic-routed models without sending anything; these cases then skip (and run once it exists).
     */
    static void assumeReachable(Upstream upstream) {
        if (upstream != Upstream.ANTHROPIC) {
            return;
        }
        if (anthropicAdapter == null) {
            HttpResponse<String> probe = ItSupport.post(GATEWAY.gateway(), "/v1beta/models/an-basic:generateContent",
                    Map.of("x-goog-api-key", GATEWAY.gateway().apiKey(), "content-type", "application/json"),
                    "{\"contents\":[{\"parts\":[{\"text\":\"probe\"}]}]}");
            anthropicAdapter = probe.statusCode() != 503 || !GATEWAY.gateway().upstream().received().isEmpty();
            GATEWAY.gateway().upstream().reset();
        }
        assumeTrue(anthropicAdapter, "no Anthropic upstream adapter in this build (ProviderType.ANTHROPIC is not "
                + "registered in GatewayApp): the Anthropic-upstream cases run once it is merged");
    }

    private static String hello(Upstream upstream, String kind) {
        return "Hello from " + upstream.upstreamModel(kind) + "! You said: " + HELLO;
    }

    private static void assertUsageAddsUp(GenerateContentResponseUsageMetadata usage, int candidates) {
        int prompt = usage.promptTokenCount().orElseThrow();
        assertThat(prompt).isPositive();
        assertThat(usage.candidatesTokenCount()).contains(candidates);
        assertThat(usage.totalTokenCount()).contains(prompt + candidates + usage.thoughtsTokenCount().orElse(0));
    }

    @ParameterizedTest
    @EnumSource(Upstream.class)
    void textAnswerHasTheRequestedModelStopAndUsage(Upstream upstream) {
        assumeReachable(upstream);
        GenerateContentResponse response = GATEWAY.client().models.generateContent(upstream.model("basic"), HELLO, null);

        assertThat(response.text()).isEqualTo(hello(upstream, "basic"));
        assertThat(response.modelVersion()).contains(upstream.model("basic"));
        assertThat(response.finishReason().knownEnum()).isEqualTo(FinishReason.Known.STOP);
        assertThat(response.parts()).allSatisfy(p -> assertThat(p.thought()).isNotEqualTo(java.util.Optional.of(true)));
        assertUsageAddsUp(response.usageMetadata().orElseThrow(), hello(upstream, "basic").split(" ").length);
        assertThat(GATEWAY.gateway().upstream().received(upstream.upstreamModel("basic"))).hasSize(1);
    }

    @ParameterizedTest
    @EnumSource(Upstream.class)
    void streamConcatenatesToTheTextAndEndsWithEmptyPartsFinishReasonAndUsage(Upstream upstream) {
        assumeReachable(upstream);
        List<GenerateContentResponse> chunks = new ArrayList<>();
        try (ResponseStream<GenerateContentResponse> stream =
                     GATEWAY.client().models.generateContentStream(upstream.model("basic"), HELLO, null)) {
            stream.forEach(chunks::add);
        }

        assertThat(chunks).hasSizeGreaterThan(2);
        assertThat(chunks).allSatisfy(c -> assertThat(c.modelVersion()).contains(upstream.model("basic")));
        StringBuilder text = new StringBuilder();
        chunks.forEach(c -> {
            if (c.text() != null) {
                text.append(c.text());
            }
        });
        assertThat(text.toString()).isEqualTo(hello(upstream, "basic"));
        GenerateContentResponse last = chunks.getLast();
        assertThat(last.parts()).isEmpty();
        assertThat(last.finishReason().knownEnum()).isEqualTo(FinishReason.Known.STOP);
        assertUsageAddsUp(last.usageMetadata().orElseThrow(), text.toString().split(" ").length);
        assertThat(chunks.subList(0, chunks.size() - 1)).allSatisfy(c ->
                assertThat(c.finishReason().knownEnum()).isEqualTo(FinishReason.Known.FINISH_REASON_UNSPECIFIED));
    }

    @ParameterizedTest
    @EnumSource(Upstream.class)
    void functionCallThenItsResponseGetsTheAnswerQuotingTheResult(Upstream upstream) {
        assumeReachable(upstream);
        Content question = GeminiItSupport.user("What is the weather in Paris?");
        GenerateContentResponse first = GATEWAY.client().models.generateContent(upstream.model("tools"), List.of(question),
                GeminiItSupport.withWeather(false));

        List<FunctionCall> calls = first.functionCalls();
        assertThat(calls).hasSize(1);
        FunctionCall call = calls.getFirst();
        assertThat(call.name()).contains("get_weather");
        assertThat(call.args().orElseThrow()).containsEntry("city", "Paris");
        assertThat(call.id()).hasValueSatisfying(id -> assertThat(id).isNotBlank());
        assertThat(first.finishReason().knownEnum()).isEqualTo(FinishReason.Known.STOP);
        assertThat(toolNames(GeminiItSupport.onlyRequest(GATEWAY.gateway(), upstream.upstreamModel("tools")).json(), upstream))
                .containsExactly("get_weather");

        GATEWAY.gateway().upstream().reset();
        Content result = Content.builder().role("user").parts(List.of(Part.builder().functionResponse(
                FunctionResponse.builder().name("get_weather").id(call.id().get())
                        .response(Map.of("output", "sunny, 21 C")).build()).build())).build();
        GenerateContentResponse answer = GATEWAY.client().models.generateContent(upstream.model("tools"),
                List.of(question, first.candidates().get().getFirst().content().orElseThrow(), result),
                GeminiItSupport.withWeather(false));

        assertThat(answer.text()).isEqualTo("Tool result received: sunny, 21 C");
        ToolPair pair = toolPair(GeminiItSupport.onlyRequest(GATEWAY.gateway(), upstream.upstreamModel("tools")).json(), upstream);
        assertThat(pair.callId()).isEqualTo(pair.resultId());
    }

    @ParameterizedTest
    @EnumSource(Upstream.class)
    void streamedFunctionCallArrivesWholeBeforeTheLastChunk(Upstream upstream) {
        assumeReachable(upstream);
        List<GenerateContentResponse> chunks = new ArrayList<>();
        try (ResponseStream<GenerateContentResponse> stream = GATEWAY.client().models.generateContentStream(upstream.model("tools"),
                "What is the weather in Paris?", GeminiItSupport.withWeather(false))) {
            stream.forEach(chunks::add);
        }

        List<FunctionCall> calls = chunks.stream().flatMap(c -> c.parts() == null ? java.util.stream.Stream.empty()
                : c.parts().stream()).flatMap(p -> p.functionCall().stream()).toList();
        assertThat(calls).hasSize(1);
        assertThat(calls.getFirst().name()).contains("get_weather");
        assertThat(calls.getFirst().args().orElseThrow()).containsEntry("city", "Paris");
        assertThat(chunks.getLast().finishReason().knownEnum()).isEqualTo(FinishReason.Known.STOP);
        assertThat(chunks.getLast().usageMetadata()).isPresent();
    }

    @ParameterizedTest
    @EnumSource(Upstream.class)
    void callsAndResponsesWithoutIdsArePairedWithStableGeneratedIds(Upstream upstream) {
        assumeReachable(upstream);
        List<Content> history = List.of(GeminiItSupport.user("What is the weather in Paris?"),
                Content.builder().role("model").parts(List.of(Part.fromFunctionCall("get_weather", Map.of("city", "Paris")))).build(),
                Content.builder().role("user").parts(List.of(Part.fromFunctionResponse("get_weather", Map.of("output", "rain")))).build());

        GenerateContentResponse answer = GATEWAY.client().models.generateContent(upstream.model("tools"), history, GeminiItSupport.withWeather(false));
        GATEWAY.client().models.generateContent(upstream.model("tools"), history, GeminiItSupport.withWeather(false));

        assertThat(answer.text()).isEqualTo("Tool result received: rain");
        List<RecordedRequest> sent = GATEWAY.gateway().upstream().received(upstream.upstreamModel("tools"));
        assertThat(sent).hasSize(2);
        ToolPair pair = toolPair(sent.get(0).json(), upstream);
        assertThat(pair.callId()).isNotBlank().isEqualTo(pair.resultId());
        assertThat(toolPair(sent.get(1).json(), upstream)).as("the same history gets the same ids").isEqualTo(pair);
    }

    @ParameterizedTest
    @EnumSource(Upstream.class)
    void thoughtsComeAsThoughtPartsBeforeTheAnswer(Upstream upstream) {
        assumeReachable(upstream);
        GenerateContentConfig thoughts = GenerateContentConfig.builder()
                .thinkingConfig(ThinkingConfig.builder().includeThoughts(true).build()).build();

        GenerateContentResponse response = GATEWAY.client().models.generateContent(upstream.model("think"), HELLO, thoughts);

        List<Part> parts = response.parts();
        assertThat(parts).hasSizeGreaterThanOrEqualTo(2);
        assertThat(parts.getFirst().thought()).contains(true);
        assertThat(parts.getFirst().text().orElseThrow()).contains("step by step");
        assertThat(response.text()).as("text() leaves the thoughts out").isEqualTo(hello(upstream, "think"));
        if (upstream != Upstream.ANTHROPIC) { // Anthropic does not report reasoning tokens apart (spec 2.4 rule 4)
            assertThat(response.usageMetadata().orElseThrow().thoughtsTokenCount().orElse(0)).isPositive();
        }

        List<GenerateContentResponse> chunks = new ArrayList<>();
        try (ResponseStream<GenerateContentResponse> stream =
                     GATEWAY.client().models.generateContentStream(upstream.model("think"), HELLO, thoughts)) {
            stream.forEach(chunks::add);
        }
        List<Part> streamed = chunks.stream().flatMap(c -> c.parts().stream()).toList();
        StringBuilder thought = new StringBuilder();
        StringBuilder text = new StringBuilder();
        boolean answerStarted = false;
        for (Part p : streamed) {
            if (p.thought().orElse(false)) {
                assertThat(answerStarted).as("no thought after the answer began").isFalse();
                thought.append(p.text().orElse(""));
            } else if (p.text().isPresent()) {
                answerStarted = true;
                text.append(p.text().get());
            }
        }
        assertThat(thought.toString()).isEqualTo(parts.getFirst().text().orElseThrow());
        assertThat(text.toString()).isEqualTo(hello(upstream, "think"));
    }

    @ParameterizedTest
    @EnumSource(Upstream.class)
    void systemInstructionReachesTheUpstreamInItsOwnShape(Upstream upstream) {
        assumeReachable(upstream);
        GenerateContentConfig config = GenerateContentConfig.builder()
                .systemInstruction(Content.fromParts(Part.fromText("Answer in French."))).build();

        GenerateContentResponse response = GATEWAY.client().models.generateContent(upstream.model("basic"), HELLO, config);

        assertThat(response.text()).isEqualTo(hello(upstream, "basic"));
        JsonNode sent = GeminiItSupport.onlyRequest(GATEWAY.gateway(), upstream.upstreamModel("basic")).json();
        assertThat(systemText(sent, upstream)).isEqualTo("Answer in French.");
    }

    /** The id of the tool call and of the tool result in a request the fake received. */
    record ToolPair(String callId, String resultId) {
    }

    private static ToolPair toolPair(JsonNode sent, Upstream upstream) {
        return switch (upstream) {
            case OPENAI -> {
                JsonNode messages = sent.path("messages");
                JsonNode assistant = messages.get(messages.size() - 2);
                yield new ToolPair(assistant.at("/tool_calls/0/id").asText(), messages.get(messages.size() - 1).path("tool_call_id").asText());
            }
            case ANTHROPIC -> {
                JsonNode messages = sent.path("messages");
                JsonNode call = find(messages.get(messages.size() - 2).path("content"), "tool_use");
                JsonNode result = find(messages.get(messages.size() - 1).path("content"), "tool_result");
                yield new ToolPair(call.path("id").asText(), result.path("tool_use_id").asText());
            }
            case GEMINI -> {
                JsonNode contents = sent.path("contents");
                JsonNode call = contents.get(contents.size() - 2).at("/parts/0/functionCall");
                JsonNode result = contents.get(contents.size() - 1).at("/parts/0/functionResponse");
                assertThat(result.path("name").asText()).isEqualTo(call.path("name").asText());
                // Google pairs by name and order; an id, when sent, must be the call's
                yield new ToolPair(call.path("id").asText("by-name"), result.path("id").asText(call.path("id").asText("by-name")));
            }
        };
    }

    private static JsonNode find(JsonNode blocks, String type) {
        for (JsonNode b : blocks) {
            if (b.path("type").asText().equals(type)) {
                return b;
            }
        }
        throw new AssertionError("no " + type + " block in " + blocks);
    }

    private static List<String> toolNames(JsonNode sent, Upstream upstream) {
        List<String> names = new ArrayList<>();
        switch (upstream) {
            case OPENAI -> sent.path("tools").forEach(t -> names.add(t.at("/function/name").asText()));
            case ANTHROPIC -> sent.path("tools").forEach(t -> names.add(t.path("name").asText()));
            case GEMINI -> sent.path("tools").forEach(t -> t.path("functionDeclarations").forEach(d -> names.add(d.path("name").asText())));
        }
        return names;
    }

    private static String systemText(JsonNode sent, Upstream upstream) {
        return switch (upstream) {
            case OPENAI -> {
                JsonNode first = sent.path("messages").get(0);
                assertThat(first.path("role").asText()).isIn("system", "developer");
                yield first.path("content").isTextual() ? first.path("content").asText() : first.at("/content/0/text").asText();
            }
            case ANTHROPIC -> sent.path("system").isTextual() ? sent.path("system").asText() : sent.at("/system/0/text").asText();
            case GEMINI -> sent.at("/systemInstruction/parts/0/text").asText();
        };
    }
}
