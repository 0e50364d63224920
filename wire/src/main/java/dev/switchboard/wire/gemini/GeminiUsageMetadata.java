package dev.switchboard.wire.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.Usage;
import dev.switchboard.wire.Json;

/**
 * {@code usageMetadata} both ways. Gemini's {@code promptTokenCount} already includes
 * {@code cachedContentTokenCount}, like the canonical {@code inputTokens}; its
 * {@code candidatesTokenCount} excludes {@code thoughtsTokenCount}, while the canonical
 * {@code outputTokens} includes reasoning.
 */
final class GeminiUsageMetadata {
    private GeminiUsageMetadata() {
    }

    /**
     * The client-facing object. {@code thoughtsTokenCount} and {@code cachedContentTokenCount} appear only
     * when positive (spec 2.9: the cached count appears when the upstream reported a cache read).
     */
    static ObjectNode write(Usage usage) {
        ObjectNode u = Json.object();
        u.put("promptTokenCount", usage.inputTokens());
        u.put("candidatesTokenCount", Math.max(0, usage.outputTokens() - usage.reasoningTokens()));
        u.put("totalTokenCount", usage.totalTokens());
        if (usage.reasoningTokens() > 0) {
            u.put("thoughtsTokenCount", usage.reasoningTokens());
        }
        if (usage.cacheReadTokens() > 0) {
            u.put("cachedContentTokenCount", usage.cacheReadTokens());
        }
        return u;
    }

    /**
     * An upstream object. Tokens of tool-use prompts (e.g. search results Google added) are input too.
     * Negative or non-numeric counts read as 0: usage is informative, never a reason to fail an answer.
     */
    static Usage read(JsonNode u) {
        long prompt = count(u, "promptTokenCount") + count(u, "toolUsePromptTokenCount");
        long thoughts = count(u, "thoughtsTokenCount");
        long candidates = count(u, "candidatesTokenCount");
        long cached = Math.min(count(u, "cachedContentTokenCount"), prompt);
        return new Usage(prompt, candidates + thoughts, thoughts, cached, 0, 0, Usage.Provenance.REPORTED);
    }

    private static long count(JsonNode u, String field) {
        JsonNode v = u.path(field);
        return v.canConvertToLong() && v.isIntegralNumber() ? Math.max(0, v.longValue()) : 0;
    }
}
