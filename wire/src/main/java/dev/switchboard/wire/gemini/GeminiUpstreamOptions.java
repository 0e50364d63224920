package dev.switchboard.wire.gemini;

import java.util.Objects;

/**
 * How {@link Gemini#toUpstream(dev.switchboard.model.ChatRequest, GeminiUpstreamOptions)} adapts a
 * request to one family of Gemini models.
 *
 * @param effortMapping how a reasoning effort (without a token budget) is expressed
 */
public record GeminiUpstreamOptions(EffortMapping effortMapping) {

    /** Gemini 3 style: efforts as {@code thinkingLevel}. */
    public static final GeminiUpstreamOptions DEFAULT = new GeminiUpstreamOptions(EffortMapping.THINKING_LEVEL);

    /**
     * Where an effort goes. Gemini 3 models take {@code thinkingLevel} (MINIMAL, LOW, MEDIUM, HIGH);
     * Gemini 2.5 models know only {@code thinkingBudget}. Google rejects a request that sends both, so
     * exactly one is chosen per model family (the engine knows the family from its catalog).
     */
    public enum EffortMapping {
        /**
         * {@code thinkingLevel}: none and minimal as MINIMAL, low as LOW, medium as MEDIUM, high and above as
         * HIGH (the highest level Google offers).
         */
        THINKING_LEVEL,
        /**
         * {@code thinkingBudget} in tokens: none 0, minimal 512, low 2048, medium 8192, high 16384,
         * xhigh 24576, max 32768 (Gemini 2.5 Pro's ceiling). Rough equivalents, not Google-defined.
         */
        THINKING_BUDGET
    }

    public GeminiUpstreamOptions {
        Objects.requireNonNull(effortMapping, "effortMapping");
    }
}
