package dev.switchboard.testkit.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.core.http.HttpResponseFor;
import com.openai.core.http.StreamResponse;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.models.Model;
import dev.switchboard.testkit.RecordedRequest;
import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Plain and streamed completions, aliases, model discovery and request ids, judged by the official OpenAI SDK. */
class ChatCompletionsIT {
    @RegisterExtension
    static final SdkGateway<OpenAIClient> GATEWAY = ItSupport.openAiGateway();

    @Test
    void plainCompletionHasTextStopUsageAndTheGatewayModelId() {
        ChatCompletion completion = GATEWAY.client().chat().completions().create(ItSupport.ask("chat-basic", "Say hi to the tests"));

        assertThat(completion.model()).isEqualTo("chat-basic");
        assertThat(completion.choices()).hasSize(1);
        ChatCompletion.Choice choice = completion.choices().getFirst();
        String text = choice.message().content().orElseThrow();
        assertThat(text).isEqualTo("Hello from up-basic! You said: Say hi to the tests");
        assertThat(choice.finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.STOP);
        var usage = completion.usage().orElseThrow();
        // the fake counts ceil(19 prompt chars / 4) = 5 and one token per word of the answer
        assertThat(usage.promptTokens()).isEqualTo(5);
        assertThat(usage.completionTokens()).isEqualTo(text.split(" ").length);
        assertThat(usage.totalTokens()).isEqualTo(usage.promptTokens() + usage.completionTokens());
        assertThat(ItSupport.upstreamModels(GATEWAY.gateway())).containsExactly("up-basic");
    }

    @Test
    void streamedCompletionConcatenatesToTheTextAndEndsWithFinishReasonAndUsage() {
        List<ChatCompletionChunk> chunks;
        try (StreamResponse<ChatCompletionChunk> stream = GATEWAY.client().chat().completions()
                .createStreaming(ItSupport.ask("chat-basic", "Say hi to the tests"))) {
            chunks = stream.stream().toList();
        }

        assertThat(chunks).isNotEmpty();
        assertThat(chunks).allSatisfy(c -> assertThat(c.model()).isEqualTo("chat-basic"));
        ChatCompletionChunk first = chunks.getFirst();
        assertThat(first.choices().getFirst().delta().role())
                .contains(ChatCompletionChunk.Choice.Delta.Role.ASSISTANT);

        StringBuilder text = new StringBuilder();
        List<ChatCompletionChunk> withChoices = chunks.stream().filter(c -> !c.choices().isEmpty()).toList();
        for (ChatCompletionChunk c : withChoices) {
            c.choices().getFirst().delta().content().ifPresent(text::append);
        }
        assertThat(text.toString()).isEqualTo("Hello from up-basic! You said: Say hi to the tests");

        ChatCompletionChunk lastChoice = withChoices.getLast();
        assertThat(withChoices.subList(0, withChoices.size() - 1))
                .allSatisfy(c -> assertThat(c.choices().getFirst().finishReason()).isEmpty());
        assertThat(lastChoice.choices().getFirst().finishReason())
                .contains(ChatCompletionChunk.Choice.FinishReason.STOP);

        // usage comes on the final chunk although the request did not ask with stream_options
        var usage = chunks.getLast().usage().orElseThrow();
        assertThat(usage.promptTokens()).isEqualTo(5);
        assertThat(usage.completionTokens()).isEqualTo(text.toString().split(" ").length);
        assertThat(usage.totalTokens()).isEqualTo(usage.promptTokens() + usage.completionTokens());
    }

    @Test
    void streamIsServerSentChunksEndingWithAnEmptyDeltaFinishUsageAndDoneWhateverStreamOptionsSay() {
        HttpResponse<String> response = ItSupport.post(GATEWAY.gateway(), "/v1/chat/completions", ItSupport.bearer(GATEWAY.gateway().apiKey()),
                "{\"model\":\"chat-basic\",\"stream\":true,\"stream_options\":{\"include_usage\":false},"
                        + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type").orElse("")).startsWith("text/event-stream");
        List<String> data = ItSupport.sseData(response.body());
        assertThat(data.getLast()).isEqualTo("[DONE]");
        assertThat(data.subList(0, data.size() - 1)).doesNotContain("[DONE]");
        List<JsonNode> chunks = data.subList(0, data.size() - 1).stream().map(ItSupport::json).toList();
        assertThat(chunks).allSatisfy(c -> {
            assertThat(c.path("object").asText()).isEqualTo("chat.completion.chunk");
            assertThat(c.path("model").asText()).isEqualTo("chat-basic");
            assertThat(c.has("error")).isFalse();
        });
        assertThat(chunks.stream().map(c -> c.path("id").asText()).distinct()).hasSize(1);
        JsonNode last = chunks.getLast();
        JsonNode choice = last.path("choices").get(0);
        assertThat(choice.path("finish_reason").asText()).isEqualTo("stop");
        assertThat(choice.path("delta").path("content").asText("")).isEmpty();
        assertThat(last.path("usage").path("completion_tokens").asInt()).isPositive();
        assertThat(last.path("usage").path("total_tokens").asInt())
                .isEqualTo(last.path("usage").path("prompt_tokens").asInt() + last.path("usage").path("completion_tokens").asInt());
    }

    @Test
    void aliasAnswersWithTheCanonicalModelId() {
        ChatCompletion completion = GATEWAY.client().chat().completions().create(ItSupport.ask("chat-old", "hello"));

        assertThat(completion.model()).isEqualTo("chat-basic");
        assertThat(ItSupport.upstreamModels(GATEWAY.gateway())).containsExactly("up-basic");
    }

    @Test
    void modelsListContainsTheConfiguredIds() {
        List<String> ids = StreamSupport.stream(GATEWAY.client().models().list().autoPager().spliterator(), false)
                .map(Model::id).toList();

        assertThat(ids).contains("chat-basic", "chat-tools", "chat-failover", "chat-backup");
        assertThat(ids).doesNotContain("chat-old"); // an alias is not a model of its own
    }

    @Test
    void modelsListRawJsonCarriesCapabilityFlagsAndPricing() {
        HttpResponse<String> response = ItSupport.get(GATEWAY.gateway(), "/v1/models", ItSupport.bearer(GATEWAY.gateway().apiKey()));

        assertThat(response.statusCode()).isEqualTo(200);
        Map<String, JsonNode> byId = new java.util.HashMap<>();
        ItSupport.json(response.body()).path("data").forEach(m -> byId.put(m.path("id").asText(), m));
        JsonNode tools = byId.get("chat-tools");
        assertThat(tools.path("supports_tools").asBoolean()).isTrue();
        assertThat(tools.path("supports_reasoning").asBoolean()).isTrue();
        assertThat(tools.path("supports_vision").isBoolean()).isTrue();
        assertThat(tools.path("supports_vision").asBoolean()).isFalse();
        assertThat(tools.path("pricing").path("input").decimalValue()).isEqualByComparingTo(new BigDecimal("3"));
        assertThat(tools.path("pricing").path("output").decimalValue()).isEqualByComparingTo(new BigDecimal("15"));
        assertThat(tools.path("pricing").path("cache_read").decimalValue()).isEqualByComparingTo(new BigDecimal("0.3"));
        JsonNode basic = byId.get("chat-basic");
        assertThat(basic.path("supports_tools").asBoolean()).isFalse();
        assertThat(basic.path("pricing").path("input").decimalValue()).isEqualByComparingTo(new BigDecimal("1.25"));
        assertThat(basic.path("pricing").path("output").decimalValue()).isEqualByComparingTo(new BigDecimal("2.50"));
    }

    @Test
    void allowedParamsOfAModelWithoutToolsOrReasoningListNeither() {
        JsonNode basic = ItSupport.json(ItSupport.get(GATEWAY.gateway(), "/api/models/chat-basic/allowed-params", Map.of()).body());
        JsonNode tools = ItSupport.json(ItSupport.get(GATEWAY.gateway(), "/api/models/chat-tools/allowed-params", Map.of()).body());

        List<String> basicParams = texts(basic.path("allowed_params"));
        assertThat(basicParams).contains("model", "messages", "temperature", "stop", "models");
        assertThat(basicParams).doesNotContain("tools", "tool_choice", "reasoning_effort", "thinking");
        // the same call for a model with both flags does list them, so the absence above means something
        assertThat(texts(tools.path("allowed_params"))).contains("tools", "tool_choice", "reasoning_effort");
    }

    @Test
    void callersKeyIsNeverForwardedUpstream() {
        GATEWAY.client().chat().completions().create(ItSupport.ask("chat-basic", "one"));
        try (var stream = GATEWAY.client().chat().completions().createStreaming(ItSupport.ask("chat-basic", "two"))) {
            stream.stream().forEach(c -> { });
        }

        List<RecordedRequest> received = GATEWAY.gateway().upstream().received();
        assertThat(received).hasSize(2);
        for (RecordedRequest r : received) {
            // the fake requires the provider's key, so these answers prove it was sent
            assertThat(ItSupport.authorization(r)).isEqualTo("Bearer " + ItSupport.UPSTREAM_KEY);
            r.headers().values().forEach(values -> values.forEach(v -> assertThat(v).doesNotContain(GATEWAY.gateway().apiKey())));
            assertThat(r.bodyText()).doesNotContain(GATEWAY.gateway().apiKey());
        }
    }

    @Test
    void everyResponseCarriesARequestId() {
        HttpResponseFor<ChatCompletion> ok = GATEWAY.client().withRawResponse().chat().completions()
                .create(ItSupport.ask("chat-basic", "hi"));
        List<String> okIds = ok.headers().values("x-request-id");

        com.openai.errors.NotFoundException notFound = org.junit.jupiter.api.Assertions.assertThrows(
                com.openai.errors.NotFoundException.class,
                () -> GATEWAY.client().chat().completions().create(ItSupport.ask("no-such-model", "hi")));
        List<String> errorIds = notFound.headers().values("x-request-id");

        HttpResponse<String> streamed = ItSupport.post(GATEWAY.gateway(), "/v1/chat/completions", ItSupport.bearer(GATEWAY.gateway().apiKey()),
                "{\"model\":\"chat-basic\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        HttpResponse<String> unauthorized = ItSupport.get(GATEWAY.gateway(), "/v1/models", Map.of());
        HttpResponse<String> health = ItSupport.get(GATEWAY.gateway(), "/health", Map.of());
        HttpResponse<String> noRoute = ItSupport.get(GATEWAY.gateway(), "/v1/no-such-endpoint", Map.of());

        List<String> all = new ArrayList<>();
        assertThat(okIds).hasSize(1);
        all.addAll(okIds);
        assertThat(errorIds).hasSize(1);
        all.addAll(errorIds);
        for (HttpResponse<String> r : List.of(streamed, unauthorized, health, noRoute)) {
            assertThat(r.headers().allValues("x-request-id")).as("x-request-id of %s", r.uri()).hasSize(1);
            all.add(r.headers().firstValue("x-request-id").orElseThrow());
        }
        assertThat(streamed.statusCode()).isEqualTo(200);
        assertThat(unauthorized.statusCode()).isEqualTo(401);
        assertThat(noRoute.statusCode()).isEqualTo(404);
        assertThat(all).allSatisfy(id -> assertThat(id).isNotBlank()).doesNotHaveDuplicates();
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
