package dev.switchboard.wire.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.Usage;

/**
 * Cache writes in a {@code usage} object the way chat completions (spec 2.6) and Responses (spec 2.10)
 * both show them: the flat {@code cache_creation_input_tokens} and the TTL split
 * {@code cache_creation.ephemeral_5m_input_tokens} / {@code ephemeral_1h_input_tokens}, and only when
 * something was written.
 *
 * <p>Not part of the wire API: formats share it, callers outside {@code wire} must not.
 */
public final class CacheWriteUsage {
    private CacheWriteUsage() {
    }

    /** Adds the cache-write fields of {@code u} to {@code usage} when it wrote to the cache. */
    public static void put(ObjectNode usage, Usage u) {
        if (u.cacheWriteTokens() > 0) {
            usage.put("cache_creation_input_tokens", u.cacheWriteTokens());
            ObjectNode split = usage.putObject("cache_creation");
            split.put("ephemeral_5m_input_tokens", u.cacheWrite5mTokens());
            split.put("ephemeral_1h_input_tokens", u.cacheWrite1hTokens());
        }
    }
}
