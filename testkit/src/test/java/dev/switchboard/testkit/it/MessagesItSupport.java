package dev.switchboard.testkit.it;

import static dev.switchboard.testkit.GatewayConfigSupport.anthropicProvider;
import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.openAiProvider;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.JsonValue;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.ContentBlock;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.anthropic.models.messages.Tool;
import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.testkit.GatewayConfigSupport.Model;
import dev.switchboard.testkit.TestGateway;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What the messages-format end-to-end tests share: a gateway config with an Anthropic-style provider and an
 * OpenAI-style one, both the fake upstream (whose model-name suffixes script it), and official Anthropic
 * SDK clients for a gateway.
 *
 * <p>Models named {@code claude-*} are served by the {@code claude} provider (Anthropic format), models
 * named {@code gpt-*} by the {@code gpt} provider (OpenAI format); the others mix both.
 */
final class MessagesItSupport {
    /** The only key the fake accepts, on both providers. */
    static final String UPSTREAM_KEY = ItSupport.UPSTREAM_KEY;

    static final String CONFIG = TestGateway.DEFAULT_HEADER
            + providers(anthropicProvider("claude", UPSTREAM_KEY), openAiProvider("gpt", UPSTREAM_KEY))
            + models(
                    claude("claude-chat").supports("tools", "reasoning", "caching")
                            .pricing("{input: 3, output: 15, cache_read: 0.3, cache_write_5m: 3.75, cache_write_1h: 6}")
                            .route("claude/up-claude"),
                    claude("claude-think").supports("tools", "reasoning").pricing("{input: 3, output: 15}")
                            .route("claude/up-claude-reasoning"),
                    claude("claude-redacted").supports("tools", "reasoning").pricing("{input: 3, output: 15}")
                            .route("claude/up-claude-reasoning-redacted"),
                    claude("claude-parallel").supports("tools", "reasoning").pricing("{input: 3, output: 15}")
                            .route("claude/up-claude-reasoning-parallel"),
                    claude("claude-noprefill").pricing("{input: 3, output: 15}").route("claude/up-strict-noprefill"),
                    gpt("gpt-chat").supports("tools", "reasoning").pricing("{input: 1, output: 2}").route("gpt/up-gpt"),
                    gpt("gpt-think").supports("tools", "reasoning").pricing("{input: 1, output: 2}").route("gpt/up-gpt-reasoning"),
                    gpt("gpt-parallel").supports("tools", "reasoning").pricing("{input: 1, output: 2}")
                            .route("gpt/up-gpt-reasoning-parallel"),
                    gpt("gpt-cache").pricing("{input: 1, output: 2}").route("gpt/up-gpt-cache"),
                    claude("claude-failover").route("claude/up-busy-fail529", "claude/up-claude-rescue"),
                    claude("claude-cross").route("claude/up-down-fail503", "gpt/up-gpt-rescue"),
                    claude("claude-dead").route("claude/up-dead-fail529", "gpt/up-gone-fail503"),
                    claude("claude-empty").route("claude/up-void-empty", "claude/up-claude-saved"),
                    claude("claude-midfail").route("claude/up-cut-midfail", "claude/up-never-asked"),
                    gpt("gpt-backup").route("gpt/up-backup"),
                    claude("claude-picky").route("claude/up-picky-fail400", "claude/up-never-asked"));

    private MessagesItSupport() {
    }

    /** A model with the context and output limits of the Claude models the tests stand in for. */
    private static Model claude(String name) {
        return model(name).limits(200000, 4096);
    }

    /** A model with the context and output limits of the GPT models the tests stand in for. */
    private static Model gpt(String name) {
        return model(name).limits(128000, 4096);
    }

    /** The gateway on {@link #CONFIG}, the fake accepting {@link #UPSTREAM_KEY}, with an Anthropic SDK client. */
    static SdkGateway<AnthropicClient> anthropicGateway() {
        return new SdkGateway<>(CONFIG, MessagesItSupport::client, UPSTREAM_KEY);
    }

    /** An SDK client sending the test user's key as {@code x-api-key}; no SDK retries, so every failure is the gateway's. */
    static AnthropicClient client(TestGateway gateway) {
        return builder(gateway).apiKey(gateway.apiKey()).build();
    }

    /** An SDK client sending the test user's key as {@code Authorization: Bearer} (the SDK's auth-token mode). */
    static AnthropicClient bearerClient(TestGateway gateway) {
        return builder(gateway).authToken(gateway.apiKey()).build();
    }

    private static AnthropicOkHttpClient.Builder builder(TestGateway gateway) {
        return AnthropicOkHttpClient.builder()
                .baseUrl(gateway.baseUrl())
                .maxRetries(0)
                .responseValidation(true)
                .timeout(Duration.ofSeconds(15));
    }

    /** A one-message request for {@code model}. */
    static MessageCreateParams ask(String model, String text) {
        return MessageCreateParams.builder().model(model).maxTokens(1024).addUserMessage(text).build();
    }

    /** A tool taking one required string property. */
    static Tool tool(String name, String property) {
        return Tool.builder()
                .name(name)
                .description("Looks up the " + property)
                .inputSchema(Tool.InputSchema.builder()
                        .properties(JsonValue.from(Map.of(property, Map.of("type", "string"))))
                        .addRequired(property)
                        .build())
                .build();
    }

    /** Every event of a streamed answer, read to the end. */
    static List<RawMessageStreamEvent> stream(AnthropicClient client, MessageCreateParams params) {
        try (StreamResponse<RawMessageStreamEvent> stream = client.messages().createStreaming(params)) {
            return stream.stream().toList();
        }
    }

    /** The message a stream's events assemble to, as the SDK's own accumulator builds it. */
    static Message accumulate(List<RawMessageStreamEvent> events) {
        MessageAccumulator accumulator = MessageAccumulator.create();
        events.forEach(accumulator::accumulate);
        return accumulator.message();
    }

    /** The text blocks of a message, concatenated. */
    static String text(Message message) {
        return message.content().stream().filter(ContentBlock::isText).map(b -> b.asText().text())
                .collect(Collectors.joining());
    }

    /** The block types of a message, in order ({@code text}, {@code thinking}, {@code tool_use}...). */
    static List<String> types(Message message) {
        List<String> out = new ArrayList<>();
        for (ContentBlock b : message.content()) {
            out.add(b.isText() ? "text" : b.isThinking() ? "thinking" : b.isRedactedThinking() ? "redacted_thinking"
                    : b.isToolUse() ? "tool_use" : b.type().toString());
        }
        return out;
    }

    /** A tool_use block's input as a tree. */
    static JsonNode input(ContentBlock toolUse) {
        return toolUse.asToolUse()._input().convert(JsonNode.class);
    }

    /** Headers of a raw request to a messages endpoint: {@code x-api-key}, the version header and JSON. */
    static Map<String, String> headers(String key) {
        return Map.of("x-api-key", key, "anthropic-version", "2023-06-01", "content-type", "application/json");
    }
}
