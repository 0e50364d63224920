package dev.switchboard.engine.limits;

import dev.switchboard.engine.route.Candidate;
import dev.switchboard.engine.tokens.TokenEstimator;
import java.util.List;

/**
 * The tokens a request may use at most, as token limits reserve them at admission: for each candidate its prompt
 * estimate plus the most output it may produce ({@code max_tokens}, else the model's {@code max_output_tokens}),
 * and the largest of these over the candidates, since any of them may answer. Settlement then corrects the
 * reservation to the actual count, so a cap is overshot at most by one request's estimate error.
 */
final class TokenEstimate {
    private TokenEstimate() {
    }

    static long of(List<Candidate> candidates) {
        long most = 0;
        for (Candidate c : candidates) {
            long output = c.request().maxTokens().isPresent() ? c.request().maxTokens().getAsInt() : c.model().maxOutputTokens();
            most = Math.max(most, TokenEstimator.ofPrompt(c.request()) + output);
        }
        return most;
    }

    /** The prompt part of the estimate for the requested candidate, for messages. */
    static long prompt(Candidate requested) {
        return TokenEstimator.ofPrompt(requested.request());
    }
}
