package dev.switchboard.testkit.it;

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

    static final String CONFIG = TestGateway.DEFAULT_HEADER + """
            providers:
              claude:
                type: anthropic
                base_url: ${UPSTREAM}
                keys: ["%1$s"]
                timeouts: {connect: 1s, first_byte: 3s, idle: 3s, total: 10s}
              gpt:
                type: openai
                base_url: ${UPSTREAM_OPENAI}
                keys: ["%1$s"]
                timeouts: {connect: 1s, first_byte: 3s, idle: 3s, total: 10s}
            models:
              claude-chat:
                context_length: 200000
                max_output_tokens: 4096
                supports_tools: true
                supports_reasoning: true
                supports_caching: true
                pricing: {input: 3, output: 15, cache_read: 0.3, cache_write_5m: 3.75, cache_write_1h: 6}
                route: [{provider: claude, model: up-claude}]
              claude-think:
                context_length: 200000
                max_output_tokens: 4096
                supports_tools: true
                supports_reasoning: true
                pricing: {input: 3, output: 15}
                route: [{provider: claude, model: up-claude-reasoning}]
              claude-redacted:
                context_length: 200000
                max_output_tokens: 4096
                supports_tools: true
                supports_reasoning: true
                pricing: {input: 3, output: 15}
                route: [{provider: claude, model: up-claude-reasoning-redacted}]
              claude-parallel:
                context_length: 200000
                max_output_tokens: 4096
                supports_tools: true
                supports_reasoning: true
                pricing: {input: 3, output: 15}
                route: [{provider: claude, model: up-claude-reasoning-parallel}]
              claude-noprefill:
                context_length: 200000
                max_output_tokens: 4096
                pricing: {input: 3, output: 15}
                route: [{provider: claude, model: up-strict-noprefill}]
              gpt-chat:
                context_length: 128000
                max_output_tokens: 4096
                supports_tools: true
                supports_reasoning: true
                pricing: {input: 1, output: 2}
                route: [{provider: gpt, model: up-gpt}]
              gpt-think:
                context_length: 128000
                max_output_tokens: 4096
                supports_tools: true
                supports_reasoning: true
                pricing: {input: 1, output: 2}
                route: [{provider: gpt, model: up-gpt-reasoning}]
              gpt-parallel:
                context_length: 128000
                max_output_tokens: 4096
                supports_tools: true
                supports_reasoning: true
                pricing: {input: 1, output: 2}
                route: [{provider: gpt, model: up-gpt-reasoning-parallel}]
              gpt-cache:
                context_length: 128000
                max_output_tokens: 4096
                pricing: {input: 1, output: 2}
                route: [{provider: gpt, model: up-gpt-cache}]
              claude-failover:
                context_length: 200000
                max_output_tokens: 4096
                pricing: {input: 0, output: 0}
                route:
                  - {provider: claude, model: up-busy-fail529}
                  - {provider: claude, model: up-claude-rescue}
              claude-cross:
                context_length: 200000
                max_output_tokens: 4096
                pricing: {input: 0, output: 0}
                route:
                  - {provider: claude, model: up-down-fail503}
                  - {provider: gpt, model: up-gpt-rescue}
              claude-dead:
                context_length: 200000
                max_output_tokens: 4096
                pricing: {input: 0, output: 0}
                route:
                  - {provider: claude, model: up-dead-fail529}
                  - {provider: gpt, model: up-gone-fail503}
              gpt-backup:
                context_length: 128000
                max_output_tokens: 4096
                pricing: {input: 0, output: 0}
                route: [{provider: gpt, model: up-backup}]
              claude-empty:
                context_length: 200000
                max_output_tokens: 4096
                pricing: {input: 0, output: 0}
                route:
                  - {provider: claude, model: up-void-empty}
                  - {provider: claude, model: up-claude-saved}
              claude-midfail:
                context_length: 200000
                max_output_tokens: 4096
                pricing: {input: 0, output: 0}
                route:
                  - {provider: claude, model: up-cut-midfail}
                  - {provider: claude, model: up-never-asked}
              claude-picky:
                context_length: 200000
                max_output_tokens: 4096
                pricing: {input: 0, output: 0}
                route:
                  - {provider: claude, model: up-picky-fail400}
                  - {provider: claude, model: up-never-asked}
            """.formatted(UPSTREAM_KEY);

    private MessagesItSupport() {
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
