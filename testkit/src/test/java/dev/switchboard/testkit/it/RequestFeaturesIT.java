package dev.switchboard.testkit.it;

import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.openAiProvider;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.errors.BadRequestException;
import com.openai.models.ResponseFormatJsonObject;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionContentPart;
import com.openai.models.chat.completions.ChatCompletionContentPartImage;
import com.openai.models.chat.completions.ChatCompletionContentPartText;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.SseStream;
import dev.switchboard.testkit.TestGateway;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Cross-format request features through the chat-completions endpoint, judged by the official OpenAI SDK
 * and by what the fake upstream received: JSON extraction (spec 2.5), middle-out and the context-window
 * 400 (spec 2.2), saved per-model defaults and {@code ignore_defaults}, service-only fields never forwarded,
 * and image URLs left to providers that fetch them.
 *
 * <p>The SSRF guard's refusal (an image URL into the network, 400, never connected to) needs a provider
 * type that takes images only as bytes; no such provider is wired into the gateway yet (Gemini is the
 * first), so it is proven on the engine components: {@code ImageFetcherTest}, {@code ImageInlinerTest}
 * and {@code ChatPipelineFeaturesTest} in the engine module.
 */
class RequestFeaturesIT {
    private static final String JSON_ANSWER = "Here you go:\n```json\n{\"answer\": 42, \"unit\": \"{braces}\"}\n```\nAnything else?";

    static final String CONFIG = TestGateway.DEFAULT_HEADER
            + providers(openAiProvider("fake", ItSupport.UPSTREAM_KEY))
            + models(
                    model("chat-json").supports("json").route("fake/up-json"),
                    model("chat-prose").with("supports_json: false").route("fake/up-json"),
                    model("chat-broken-json").supports("json").route("fake/up-broken-json"),
                    model("chat-small").limits(300, 50).route("fake/up-small"),
                    model("chat-large").limits(100000, 1024).route("fake/up-large"),
                    model("chat-def").aliases("chat-def-alias").route("fake/up-def"),
                    model("chat-think").supports("reasoning", "tools").route("fake/up-think"),
                    model("chat-vision").supports("vision").route("fake/up-vision"));

    @RegisterExtension
    static final SdkGateway<OpenAIClient> GATEWAY = new SdkGateway<>(CONFIG, ItSupport::client, ItSupport.UPSTREAM_KEY);

    @BeforeAll
    static void scriptJsonAnswers() {
        GATEWAY.gateway().upstream()
                .script("up-json", (request, exchange) -> answer(request, exchange, JSON_ANSWER))
                .script("up-broken-json", (request, exchange) -> answer(request, exchange, "```json\n{\"answer\": 42,}\n```"));
    }

    /** An OpenAI completion (or a two-chunk stream) carrying {@code text}. */
    private static void answer(RecordedRequest request, dev.switchboard.testkit.RawExchange exchange, String text)
            throws java.io.IOException {
        String model = request.model().orElseThrow();
        if (request.json().path("stream").asBoolean(false)) {
            SseStream sse = exchange.openSse(200);
            ObjectNode chunk = ItSupport.JSON.createObjectNode().put("id", "c1").put("object", "chat.completion.chunk")
                    .put("created", 1).put("model", model);
            ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
            choice.putObject("delta").put("role", "assistant").put("content", text);
            choice.putNull("finish_reason");
            sse.data(chunk.toString());
            choice.putObject("delta");
            choice.put("finish_reason", "stop");
            chunk.putObject("usage").put("prompt_tokens", 3).put("completion_tokens", 5).put("total_tokens", 8);
            sse.data(chunk.toString());
            sse.data("[DONE]");
            sse.end();
            return;
        }
        ObjectNode body = ItSupport.JSON.createObjectNode().put("id", "c1").put("object", "chat.completion").put("created", 1)
                .put("model", model);
        ObjectNode choice = body.putArray("choices").addObject().put("index", 0).put("finish_reason", "stop");
        choice.putObject("message").put("role", "assistant").put("content", text);
        body.putObject("usage").put("prompt_tokens", 3).put("completion_tokens", 5).put("total_tokens", 8);
        exchange.respondJson(200, body);
    }

    private static ChatCompletionCreateParams askJson(String model) {
        return ItSupport.ask(model, "Give me JSON").toBuilder().responseFormat(ResponseFormatJsonObject.builder().build()).build();
    }

    private static String text(ChatCompletion c) {
        return c.choices().getFirst().message().content().orElseThrow();
    }

    private static JsonNode lastUpstreamBody(String upstreamModel) {
        List<RecordedRequest> received = GATEWAY.gateway().upstream().received(upstreamModel);
        assertThat(received).isNotEmpty();
        return received.getLast().json();
    }

    // --- structured output (spec 2.5)

    @Test
    void jsonWrappedInProseAndAFenceComesBackAsTheJsonAlone() throws Exception {
        ChatCompletion c = GATEWAY.client().chat().completions().create(askJson("chat-json"));

        assertThat(text(c)).isEqualTo("{\"answer\": 42, \"unit\": \"{braces}\"}");
        assertThat(ItSupport.JSON.readTree(text(c)).path("answer").asInt()).isEqualTo(42);
        assertThat(lastUpstreamBody("up-json").path("response_format").path("type").asText()).isEqualTo("json_object");
    }

    @Test
    void withoutAJsonFormatOrOnAModelWithoutJsonSupportTheTextIsUntouched() {
        assertThat(text(GATEWAY.client().chat().completions().create(ItSupport.ask("chat-json", "Talk")))).isEqualTo(JSON_ANSWER);
        assertThat(text(GATEWAY.client().chat().completions().create(askJson("chat-prose")))).isEqualTo(JSON_ANSWER);
    }

    @Test
    void unrecoverableJsonIsReturnedUnchanged() {
        assertThat(text(GATEWAY.client().chat().completions().create(askJson("chat-broken-json"))))
                .isEqualTo("```json\n{\"answer\": 42,}\n```");
    }

    @Test
    void streamedAnswersArePassedThroughUnchanged() {
        StringBuilder text = new StringBuilder();
        try (StreamResponse<ChatCompletionChunk> stream = GATEWAY.client().chat().completions().createStreaming(askJson("chat-json"))) {
            stream.stream().filter(ch -> !ch.choices().isEmpty())
                    .forEach(ch -> ch.choices().getFirst().delta().content().ifPresent(text::append));
        }
        assertThat(text.toString()).isEqualTo(JSON_ANSWER);
    }

    // --- context window and middle-out (spec 2.2)

    /** A system prompt and eight turns of about 100 estimated tokens each, numbered. */
    private static ChatCompletionCreateParams.Builder longConversation(String model) {
        ChatCompletionCreateParams.Builder b = ChatCompletionCreateParams.builder().model(model).maxCompletionTokens(50)
                .addSystemMessage("Be brief.");
        for (int i = 0; i < 8; i++) {
            String text = ("turn " + i + " ").repeat(60).substring(0, 400);
            if (i % 2 == 0) {
                b.addUserMessage(text);
            } else {
                b.addAssistantMessage(text);
            }
        }
        return b;
    }

    @Test
    void anOverflowingConversationIsA400SayingHowToTrimItAndNothingIsSentUpstream() {
        BadRequestException e = assertThrows(BadRequestException.class,
                () -> GATEWAY.client().chat().completions().create(longConversation("chat-small").build()));

        assertThat(e.param()).contains("messages");
        assertThat(e.getMessage()).contains("overflows by about").contains("\"transforms\": [\"middle-out\"]");
        assertThat(GATEWAY.gateway().upstream().received("up-small")).isEmpty();
    }

    @Test
    void middleOutDropsMessagesFromTheMiddleKeepingSystemFirstAndLatest() {
        ChatCompletion c = GATEWAY.client().chat().completions().create(longConversation("chat-small")
                .putAdditionalBodyProperty("transforms", JsonValue.from(List.of("middle-out"))).build());

        assertThat(c.model()).isEqualTo("chat-small");
        ArrayNode sent = (ArrayNode) lastUpstreamBody("up-small").path("messages");
        // 300 tokens - 50 for max_tokens - the system prompt: the first and the latest turn (100 each) fit
        assertThat(sent).hasSize(3);
        assertThat(sent.get(0).path("role").asText()).isEqualTo("system");
        assertThat(sent.get(1).path("content").asText()).startsWith("turn 0 ");
        assertThat(sent.get(2).path("content").asText()).startsWith("turn 7 ");
        assertThat(lastUpstreamBody("up-small").has("transforms")).isFalse();
    }

    @Test
    void aFallbackWithALargerWindowGetsTheWholeConversation() {
        GATEWAY.gateway().upstream().script("up-small", (request, exchange) -> exchange.respondJson(503,
                ItSupport.JSON.createObjectNode().putObject("error").put("message", "down")));
        try {
            ChatCompletion c = GATEWAY.client().chat().completions().create(longConversation("chat-small")
                    .putAdditionalBodyProperty("transforms", JsonValue.from(List.of("middle-out")))
                    .putAdditionalBodyProperty("models", JsonValue.from(List.of("chat-large"))).build());

            assertThat(c.model()).isEqualTo("chat-large");
            assertThat(lastUpstreamBody("up-small").path("messages")).hasSize(3);
            assertThat(lastUpstreamBody("up-large").path("messages")).hasSize(9);
        } finally {
            GATEWAY.gateway().upstream().script("up-small", (request, exchange) -> answer(request, exchange, "ok"));
        }
    }

    // --- saved per-model defaults

    private static Map<String, String> admin() {
        return ItSupport.bearer(GATEWAY.gateway().adminKey());
    }

    private static String defaultsPath(String model) {
        return "/admin/v1/users/" + GATEWAY.gateway().userId() + "/defaults/" + model;
    }

    @Test
    void savedDefaultsApplyToWhatTheRequestLeavesUnsetAndIgnoreDefaultsSkipsThem() {
        HttpResponse<String> put = ItSupport.put(GATEWAY.gateway(), defaultsPath("chat-def-alias"), admin(),
                "{\"temperature\": 0.25, \"max_tokens\": 40, \"stop\": [\"END\"]}");
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
        JsonNode saved = ItSupport.json(put.body());
        assertThat(saved.path("model").asText()).isEqualTo("chat-def");
        assertThat(saved.path("user_id").asText()).isEqualTo(GATEWAY.gateway().userId());
        assertThat(saved.path("defaults").path("temperature").asDouble()).isEqualTo(0.25);
        try {
            GATEWAY.client().chat().completions().create(ItSupport.ask("chat-def", "hi"));
            JsonNode applied = lastUpstreamBody("up-def");
            assertThat(applied.path("temperature").asDouble()).isEqualTo(0.25);
            assertThat(applied.path("max_completion_tokens").asInt()).as("OpenAI's name, the default flavour").isEqualTo(40);
            assertThat(applied.path("stop").get(0).asText()).isEqualTo("END");

            GATEWAY.client().chat().completions().create(ItSupport.ask("chat-def-alias", "hi").toBuilder().temperature(1.5).build());
            assertThat(lastUpstreamBody("up-def").path("temperature").asDouble()).isEqualTo(1.5);
            assertThat(lastUpstreamBody("up-def").path("max_completion_tokens").asInt()).isEqualTo(40);

            GATEWAY.client().chat().completions().create(ItSupport.ask("chat-def", "hi").toBuilder()
                    .putAdditionalBodyProperty("ignore_defaults", JsonValue.from(true)).build());
            JsonNode ignored = lastUpstreamBody("up-def");
            assertThat(ignored.has("temperature")).isFalse();
            assertThat(ignored.has("max_tokens") || ignored.has("max_completion_tokens")).isFalse();
            assertThat(ignored.has("stop")).isFalse();
            assertThat(ignored.has("ignore_defaults")).isFalse();
        } finally {
            ItSupport.delete(GATEWAY.gateway(), defaultsPath("chat-def"), admin());
        }
    }

    @Test
    void defaultsCanBeReadShownOnAllowedParamsAndCleared() {
        assertThat(ItSupport.put(GATEWAY.gateway(), defaultsPath("chat-def"), admin(), "{\"top_p\": 0.5}").statusCode()).isEqualTo(200);

        HttpResponse<String> got = ItSupport.get(GATEWAY.gateway(), defaultsPath("chat-def-alias"), admin());
        assertThat(got.statusCode()).isEqualTo(200);
        assertThat(ItSupport.json(got.body()).path("defaults").toString()).isEqualTo("{\"top_p\":0.5}");

        JsonNode params = ItSupport.json(ItSupport.get(GATEWAY.gateway(), "/api/models/chat-def/allowed-params", ItSupport.bearer(GATEWAY.gateway().apiKey())).body());
        assertThat(params.path("defaults").toString()).isEqualTo("{\"top_p\":0.5}");
        assertThat(params.path("defaultable_params").toString()).contains("\"temperature\"").doesNotContain("\"messages\"");
        JsonNode anonymous = ItSupport.json(ItSupport.get(GATEWAY.gateway(), "/api/models/chat-def/allowed-params", Map.of()).body());
        assertThat(anonymous.has("defaults")).isFalse();
        assertThat(anonymous.path("defaultable_params").isArray()).isTrue();

        HttpResponse<String> deleted = ItSupport.delete(GATEWAY.gateway(), defaultsPath("chat-def"), admin());
        assertThat(ItSupport.json(deleted.body()).path("deleted").asBoolean()).isTrue();
        assertThat(ItSupport.get(GATEWAY.gateway(), defaultsPath("chat-def"), admin()).statusCode()).isEqualTo(404);
        assertThat(ItSupport.json(ItSupport.delete(GATEWAY.gateway(), defaultsPath("chat-def"), admin()).body()).path("deleted").asBoolean()).isFalse();

        GATEWAY.client().chat().completions().create(ItSupport.ask("chat-def", "hi"));
        assertThat(lastUpstreamBody("up-def").has("top_p")).isFalse();
    }

    @Test
    void invalidDefaultsAreRefusedNamingTheField() {
        HttpResponse<String> range = ItSupport.put(GATEWAY.gateway(), defaultsPath("chat-def"), admin(), "{\"temperature\": 3}");
        assertThat(range.statusCode()).isEqualTo(400);
        assertThat(ItSupport.json(range.body()).path("error").path("param").asText()).isEqualTo("temperature");

        HttpResponse<String> unknown = ItSupport.put(GATEWAY.gateway(), defaultsPath("chat-def"), admin(), "{\"messages\": []}");
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(ItSupport.json(unknown.body()).path("error").path("param").asText()).isEqualTo("messages");

        HttpResponse<String> format = ItSupport.put(GATEWAY.gateway(), defaultsPath("chat-def"), admin(),
                "{\"response_format\": {\"type\": \"xml\"}}");
        assertThat(ItSupport.json(format.body()).path("error").path("param").asText()).isEqualTo("response_format.type");

        assertThat(ItSupport.put(GATEWAY.gateway(), defaultsPath("no-such-model"), admin(), "{}").statusCode()).isEqualTo(404);
        assertThat(ItSupport.put(GATEWAY.gateway(), "/admin/v1/users/usr_nobody/defaults/chat-def", admin(), "{}").statusCode()).isEqualTo(404);
        assertThat(ItSupport.put(GATEWAY.gateway(), defaultsPath("chat-def"), ItSupport.bearer(GATEWAY.gateway().apiKey()), "{}").statusCode()).isEqualTo(401);
        assertThat(ItSupport.put(GATEWAY.gateway(), defaultsPath("chat-def"), admin(), "not json").statusCode()).isEqualTo(400);
        assertThat(ItSupport.get(GATEWAY.gateway(), defaultsPath("chat-def"), admin()).statusCode()).isEqualTo(404);
    }

    // --- service-only fields

    @Test
    void serviceOnlyFieldsNeverReachTheUpstream() {
        ChatCompletion c = GATEWAY.client().chat().completions().create(ItSupport.ask("chat-think", "hi").toBuilder()
                .putAdditionalBodyProperty("models", JsonValue.from(List.of("chat-def")))
                .putAdditionalBodyProperty("transforms", JsonValue.from(List.of("middle-out")))
                .putAdditionalBodyProperty("reasoning", JsonValue.from(Map.of("format", "separate", "exclude", false)))
                .putAdditionalBodyProperty("ignore_defaults", JsonValue.from(true))
                .build());

        assertThat(c.model()).isEqualTo("chat-think");
        JsonNode upstream = lastUpstreamBody("up-think");
        // skill and skills are refused while no skill exists (SameRulesIT), so they never get this far
        for (String field : List.of("models", "transforms", "reasoning", "ignore_defaults")) {
            assertThat(upstream.has(field)).as("upstream body has %s: %s", field, upstream).isFalse();
        }
    }

    // --- vision

    @Test
    void aProviderThatFetchesImageUrlsItselfGetsTheUrlAndTheGatewayFetchesNothing() {
        String url = "http://127.0.0.1:9/never-fetched-by-the-gateway.png";
        ChatCompletion c = GATEWAY.client().chat().completions().create(ChatCompletionCreateParams.builder().model("chat-vision")
                .addUserMessageOfArrayOfContentParts(List.of(
                        ChatCompletionContentPart.ofText(ChatCompletionContentPartText.builder().text("What is it?").build()),
                        ChatCompletionContentPart.ofImageUrl(ChatCompletionContentPartImage.builder()
                                .imageUrl(ChatCompletionContentPartImage.ImageUrl.builder().url(url).build()).build())))
                .build());

        assertThat(c.model()).isEqualTo("chat-vision");
        JsonNode part = lastUpstreamBody("up-vision").path("messages").get(0).path("content").get(1);
        assertThat(part.path("image_url").path("url").asText()).isEqualTo(url);
    }
}
