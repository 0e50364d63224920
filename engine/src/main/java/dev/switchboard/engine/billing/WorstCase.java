package dev.switchboard.engine.billing;

import dev.switchboard.engine.catalog.Cost;
import dev.switchboard.engine.catalog.Pricing;
import dev.switchboard.engine.route.Candidate;
import dev.switchboard.engine.tokens.TokenEstimator;

/**
 * The most a candidate's request may cost, what admission reserves: the estimated prompt at the input
 * price plus every output token it may generate ({@code max_tokens} as the model gets it, which the
 * pipeline has already capped at, or defaulted to, the model's {@code max_output_tokens}) at the output
 * price.
 */
public record WorstCase(long inputTokens, long outputTokens, long inputNanos, long nanos) {

    public static WorstCase of(Candidate candidate) {
        Pricing p = candidate.model().pricing();
        long input = TokenEstimator.ofPrompt(candidate.request());
        long output = candidate.request().maxTokens().orElse(candidate.model().maxOutputTokens());
        long inputNanos = Cost.ofTokens(input, p.inputPerMillion());
        long outputNanos = Cost.ofTokens(output, p.outputPerMillion());
        return new WorstCase(input, output, inputNanos, saturatedSum(inputNanos, outputNanos));
    }

    /** How many output tokens {@code availableNanos} covers after this prompt (0 when not even the prompt). */
    public long outputTokensCovered(long availableNanos, Pricing pricing) {
        return Math.min(outputTokens, Cost.tokensAffordable(availableNanos - inputNanos, pricing.outputPerMillion()));
    }

    private static long saturatedSum(long a, long b) {
        long s = a + b;
        return s < 0 ? Long.MAX_VALUE : s;
    }
}
