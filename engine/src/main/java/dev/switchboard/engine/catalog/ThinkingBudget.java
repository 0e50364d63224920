package dev.switchboard.engine.catalog;

/**
 * What a model accepts as a reasoning budget in tokens, when the catalog knows it: a {@link Range}
 * (Gemini 2.5's {@code thinkingBudget}, Anthropic's {@code budget_tokens}), or {@link Refused} when the
 * upstream takes effort levels only and answers 400 to a token budget (OpenAI's reasoning models, Claude
 * from Opus 4.7 on). Translation clamps or converts a caller's budget accordingly; these records only
 * state the rule.
 */
public sealed interface ThinkingBudget {

    /**
     * Budgets from {@code min} to {@code max} tokens. {@code min} is the smallest budget that turns thinking
     * on (switching it off is the reasoning family's business, not a budget of 0). {@code belowMaxTokens}
     * says the budget must also stay below the request's {@code max_tokens} (Anthropic's rule), so the
     * largest usable budget depends on the request.
     */
    record Range(int min, int max, boolean belowMaxTokens) implements ThinkingBudget {
        public Range {
            if (min < 1 || max < min) {
                throw new IllegalArgumentException("a thinking budget needs 1 <= min <= max, got " + min + ".." + max);
            }
        }

        /** {@code tokens} moved into the range, and below {@code maxTokens} when the upstream requires it. */
        public int clamp(int tokens, int maxTokens) {
            int upper = belowMaxTokens ? Math.min(max, maxTokens - 1) : max;
            return Math.max(min, Math.min(upper, tokens));
        }
    }

    /** The upstream refuses token budgets: a budget must become an effort level before it is sent. */
    record Refused() implements ThinkingBudget {
    }
}
