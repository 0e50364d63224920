package dev.switchboard.wire.responses;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.Usage;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.internal.CacheWriteUsage;

/**
 * The Responses {@code usage} object. {@code input_tokens} includes cache reads and writes and
 * {@code output_tokens} includes reasoning, as in the canonical model. Cache reads are
 * {@code input_tokens_details.cached_tokens}; writes are {@code input_tokens_details.cache_write_tokens}
 * (the SDK's field) and, as spec 2.10 asks, the flat {@code cache_creation_input_tokens} plus the TTL
 * split {@code cache_creation.ephemeral_*}, which like chat completions appear only when non-zero.
 */
final class ResponsesUsageJson {
    private ResponsesUsageJson() {
    }

    static ObjectNode write(Usage u) {
        ObjectNode o = Json.object();
        o.put("input_tokens", u.inputTokens());
        ObjectNode in = o.putObject("input_tokens_details");
        in.put("cached_tokens", u.cacheReadTokens());
        in.put("cache_write_tokens", u.cacheWriteTokens());
        o.put("output_tokens", u.outputTokens());
        o.putObject("output_tokens_details").put("reasoning_tokens", u.reasoningTokens());
        o.put("total_tokens", u.totalTokens());
        CacheWriteUsage.put(o, u);
        return o;
    }
}
