package dev.switchboard.wire.gemini;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * How {@link Gemini#toUpstream(dev.switchboard.model.ChatRequest, GeminiUpstreamOptions)} adapts a
 * request to one family of Gemini models.
 *
 * @param effortMapping how a reasoning effort (without a token budget) is expressed
 * @param minBudget     the smallest {@code thinkingBudget} that turns thinking on for the model, when known
 * @param maxBudget     the largest {@code thinkingBudget} the model accepts, when known: every budget sent
 *                      (the caller's, or one an effort maps to) is moved into the model's range, because
 *                      Google refuses one outside it
 */
public record GeminiUpstreamOptions(EffortMapping effortMapping, OptionalInt minBudget, OptionalInt maxBudget) {

    /** Gemini 3 style: efforts as {@code thinkingLevel}. */
    public static final GeminiUpstreamOptions DEFAULT = new GeminiUpstreamOptions(EffortMapping.THINKING_LEVEL);

    /** Options for a model whose budget range is not known. */
    public GeminiUpstreamOptions(EffortMapping effortMapping) {
        this(effortMapping, OptionalInt.empty(), OptionalInt.empty());
    }

    /** {@code budget} moved into the model's range; 0 (thinking off) and -1 (dynamic) are not budgets and stay. */
    public int clampBudget(int budget) {
        if (budget <= 0) {
            return budget;
        }
        int b = maxBudget.isPresent() ? Math.min(budget, maxBudget.getAsInt()) : budget;
        return minBudget.isPresent() ? Math.max(b, minBudget.getAsInt()) : b;
    }

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
        Objects.requireNonNull(minBudget, "minBudget");
        Objects.requireNonNull(maxBudget, "maxBudget");
    }
}
