package dev.switchboard.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.Usage;
import dev.switchboard.wire.Json;

/**
 * Anthropic {@code usage} objects both ways. The canonical {@code inputTokens} includes cache reads and
 * writes (the chat-completions convention); Anthropic's {@code input_tokens} excludes them,
 * so writing subtracts them and reading adds them back.
 */
final class AnthropicUsageJson {
    private AnthropicUsageJson() {
    }

    /**
     * {@code {input_tokens, cache_creation_input_tokens?, cache_read_input_tokens?, cache_creation?,
     * output_tokens}}; cache fields only when non-zero (spec 2.6, 2.8), {@code cache_creation} with both
     * TTL keys whenever anything was written.
     */
    static ObjectNode write(Usage usage) {
        ObjectNode out = Json.object().put("input_tokens", usage.uncachedInputTokens());
        if (usage.cacheWriteTokens() > 0) {
            out.put("cache_creation_input_tokens", usage.cacheWriteTokens());
        }
        if (usage.cacheReadTokens() > 0) {
            out.put("cache_read_input_tokens", usage.cacheReadTokens());
        }
        if (usage.cacheWriteTokens() > 0) {
            out.putObject("cache_creation")
                    .put("ephemeral_5m_input_tokens", usage.cacheWrite5mTokens())
                    .put("ephemeral_1h_input_tokens", usage.cacheWrite1hTokens());
        }
        out.put("output_tokens", usage.outputTokens());
        return out;
    }

    /**
     * Reads an upstream usage object. Fields it lacks keep their value from {@code previous}, because a
     * stream reports input at {@code message_start} and (cumulative) output at {@code message_delta}.
     * Writes without a TTL split count as 5-minute writes, the default TTL.
     */
    static Usage read(JsonNode usage, Usage previous) {
        if (!usage.isObject()) {
            return previous;
        }
        long uncached = count(usage, "input_tokens", previous.uncachedInputTokens());
        long read = count(usage, "cache_read_input_tokens", previous.cacheReadTokens());
        long write5m = previous.cacheWrite5mTokens();
        long write1h = previous.cacheWrite1hTokens();
        JsonNode split = usage.path("cache_creation");
        long splitTotal = count(split, "ephemeral_5m_input_tokens", 0) + count(split, "ephemeral_1h_input_tokens", 0);
        if (splitTotal > 0) {
            write5m = count(split, "ephemeral_5m_input_tokens", 0);
            write1h = count(split, "ephemeral_1h_input_tokens", 0);
        } else if (usage.path("cache_creation_input_tokens").isNumber()) {
            write5m = count(usage, "cache_creation_input_tokens", 0);
            write1h = 0;
        }
        long output = count(usage, "output_tokens", previous.outputTokens());
        long reasoning = count(usage.path("output_tokens_details"), "thinking_tokens", previous.reasoningTokens());
        return new Usage(uncached + read + write5m + write1h, output, reasoning, read, write5m, write1h,
                Usage.Provenance.REPORTED);
    }

    // Providers are not trusted to send sane numbers: negatives and non-numbers read as "not given".
    private static long count(JsonNode obj, String name, long otherwise) {
        JsonNode v = obj.path(name);
        return v.isNumber() && v.canConvertToLong() && v.longValue() >= 0 ? v.longValue() : otherwise;
    }
}
