package dev.switchboard.wire.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.Usage;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.CacheWriteUsage;

/**
 * The chat-completions {@code usage} object, both ways (spec 2.6).
 *
 * <p>{@code prompt_tokens} is the canonical input count, which already includes cache reads and writes;
 * {@code completion_tokens} includes reasoning. Detail fields are written only when non-zero, as the
 * spec requires; the cache-write fields use the Anthropic names the spec adopts.
 */
final class OpenAiUsageJson {
    private OpenAiUsageJson() {
    }

    static ObjectNode write(Usage u) {
        ObjectNode o = Json.object();
        o.put("prompt_tokens", u.inputTokens());
        o.put("completion_tokens", u.outputTokens());
        o.put("total_tokens", u.totalTokens());
        if (u.cacheReadTokens() > 0) {
            o.putObject("prompt_tokens_details").put("cached_tokens", u.cacheReadTokens());
        }
        if (u.reasoningTokens() > 0) {
            o.putObject("completion_tokens_details").put("reasoning_tokens", u.reasoningTokens());
        }
        CacheWriteUsage.put(o, u);
        return o;
    }

    /**
     * Reads an upstream {@code usage}. Cache writes come from the Anthropic-style fields some compatible
     * servers add ({@code cache_creation.*}, else the aggregate {@code cache_creation_input_tokens}) or
     * OpenAI's newer {@code prompt_tokens_details.cache_write_tokens}; writes without a TTL split count
     * as 5-minute writes, the default TTL. Negative or non-numeric counts read as 0.
     */
    static Usage read(JsonNode u) {
        long prompt = count(u.path("prompt_tokens"));
        long completion = count(u.path("completion_tokens"));
        long reasoning = count(u.path("completion_tokens_details").path("reasoning_tokens"));
        long cached = count(u.path("prompt_tokens_details").path("cached_tokens"));
        if (cached == 0) {
            cached = count(u.path("cache_read_input_tokens"));
        }
        long w5 = count(u.path("cache_creation").path("ephemeral_5m_input_tokens"));
        long w1 = count(u.path("cache_creation").path("ephemeral_1h_input_tokens"));
        long aggregate = Math.max(count(u.path("cache_creation_input_tokens")),
                count(u.path("prompt_tokens_details").path("cache_write_tokens")));
        if (aggregate > w5 + w1) {
            w5 += aggregate - w5 - w1;
        }
        return new Usage(prompt, completion, reasoning, cached, w5, w1,
                Usage.Provenance.REPORTED);
    }

    private static long count(JsonNode n) {
        return n.isNumber() ? Math.max(0, n.asLong()) : 0;
    }
}
