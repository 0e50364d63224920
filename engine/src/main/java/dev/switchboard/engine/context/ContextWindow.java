package dev.switchboard.engine.context;

import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.tokens.TokenEstimator;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.GatewayError;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether a request fits a model's context window, by the gateway's estimate (about four characters per
 * token, {@link TokenEstimator}): the prompt plus the room kept for the answer ({@code max_tokens}, or
 * {@link #DEFAULT_RESERVE} capped at the model's {@code max_output_tokens} when the request sets none) must
 * not exceed {@code context_length}. A request that overflows is trimmed by {@link MiddleOut} when it asks
 * for {@code transforms: ["middle-out"]}, and refused otherwise, before any upstream call. Pure.
 *
 * <p>The check runs once per candidate model with the request as shaped for that model, so a fallback
 * with a larger window is sent the whole conversation.
 */
public final class ContextWindow {
    /**
     * Tokens kept for the answer when the request sets no {@code max_tokens}. Small on purpose: the
     * estimate is rough, and refusing a prompt the provider would have taken is worse than letting the
     * provider decide.
     */
    public static final int DEFAULT_RESERVE = 1024;

    private ContextWindow() {
    }

    /** The outcome of the check. */
    public sealed interface Fit {
        /** The request to send. */
        ChatRequest request();
    }

    /** The request fits as it is. */
    public record Fits(ChatRequest request) implements Fit {
        public Fits {
            Objects.requireNonNull(request, "request");
        }
    }

    /** Middle-out dropped {@code dropped} messages so that the request fits. */
    public record Trimmed(ChatRequest request, int dropped) implements Fit {
        public Trimmed {
            Objects.requireNonNull(request, "request");
        }
    }

    /** The request cannot be sent to this model; {@code error} says why (400, param {@code messages}). */
    public record Overflow(ChatRequest request, GatewayError error) implements Fit {
        public Overflow {
            Objects.requireNonNull(request, "request");
            Objects.requireNonNull(error, "error");
        }
    }

    /** Checks {@code request} (already shaped for {@code model}: its {@code max_tokens} capped) against the window. */
    public static Fit fit(ChatRequest request, ModelEntry model) {
        long reserve = request.maxTokens().isPresent() ? request.maxTokens().getAsInt()
                : Math.min(DEFAULT_RESERVE, model.maxOutputTokens());
        long prompt = TokenEstimator.ofPrompt(request);
        if (prompt + reserve <= model.contextLength()) {
            return new Fits(request);
        }
        String reserved = request.maxTokens().isPresent() ? reserve + " for max_tokens"
                : reserve + " kept for the answer";
        if (!request.transforms().contains(MiddleOut.NAME)) {
            long over = prompt + reserve - model.contextLength();
            return new Overflow(request, GatewayError.invalid("messages", "This request needs about " + (prompt + reserve)
                    + " tokens (about " + prompt + " for the prompt + " + reserved + "), but the model '" + model.id()
                    + "' has a context window of " + model.contextLength() + " tokens: it overflows by about " + over
                    + " tokens. Send \"transforms\": [\"middle-out\"] to have the gateway drop messages from the middle "
                    + "of the conversation, or shorten it."));
        }
        // system prompt and tool definitions are never dropped
        long fixed = TokenEstimator.ofPrompt(request.toBuilder().messages(java.util.List.of()).build());
        long budget = model.contextLength() - reserve - fixed;
        Optional<MiddleOut.Result> trimmed = budget < 0 ? Optional.empty() : MiddleOut.trim(request.messages(), budget);
        if (trimmed.isEmpty()) {
            return new Overflow(request, GatewayError.invalid("messages", "This request does not fit the model '"
                    + model.id() + "' (context window " + model.contextLength() + " tokens, " + reserved
                    + ") even after middle-out: the system prompt, tool definitions, first message and most recent turn "
                    + "alone need more. Shorten them, lower max_tokens, or choose a model with a larger window."));
        }
        return new Trimmed(request.toBuilder().messages(trimmed.get().messages()).build(), trimmed.get().dropped());
    }
}
