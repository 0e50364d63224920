package dev.switchboard.model;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A complete answer in the canonical model. {@code model} is the model that actually answered, as the
 * caller should see it (the gateway model id, never the provider's internal name unless they are equal).
 * {@code logprobs} are the log probabilities of the answer's text tokens, in order, when the caller asked for
 * them and the provider gave them (else empty); {@code refusalLogprobs} those of its refusal's tokens (the
 * chat-completions format's {@code logprobs.refusal}). {@code refusalDetails} says why the model refused, when the
 * provider said more than the stop reason.
 */
public record ChatResponse(String id, String model, List<ContentBlock> content, StopReason stopReason,
                           Optional<String> stopSequence, Usage usage, List<TokenLogprob> logprobs,
                           List<TokenLogprob> refusalLogprobs, Optional<RefusalDetails> refusalDetails) {
    public ChatResponse {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(model, "model");
        content = List.copyOf(content);
        Objects.requireNonNull(stopReason, "stopReason");
        Objects.requireNonNull(stopSequence, "stopSequence");
        Objects.requireNonNull(usage, "usage");
        logprobs = List.copyOf(logprobs);
        refusalLogprobs = List.copyOf(refusalLogprobs);
        Objects.requireNonNull(refusalDetails, "refusalDetails");
    }

    /** An answer without refusal log probabilities or details. */
    public ChatResponse(String id, String model, List<ContentBlock> content, StopReason stopReason,
                        Optional<String> stopSequence, Usage usage, List<TokenLogprob> logprobs) {
        this(id, model, content, stopReason, stopSequence, usage, logprobs, List.of(), Optional.empty());
    }

    /** An answer without log probabilities. */
    public ChatResponse(String id, String model, List<ContentBlock> content, StopReason stopReason,
                        Optional<String> stopSequence, Usage usage) {
        this(id, model, content, stopReason, stopSequence, usage, List.of(), List.of(), Optional.empty());
    }

    public ChatResponse withModel(String m) {
        return new ChatResponse(id, m, content, stopReason, stopSequence, usage, logprobs, refusalLogprobs, refusalDetails);
    }

    public ChatResponse withContent(List<ContentBlock> c) {
        return new ChatResponse(id, model, c, stopReason, stopSequence, usage, logprobs, refusalLogprobs, refusalDetails);
    }

    public ChatResponse withUsage(Usage u) {
        return new ChatResponse(id, model, content, stopReason, stopSequence, u, logprobs, refusalLogprobs, refusalDetails);
    }

    public ChatResponse withLogprobs(List<TokenLogprob> l) {
        return new ChatResponse(id, model, content, stopReason, stopSequence, usage, l, refusalLogprobs, refusalDetails);
    }

    public ChatResponse withRefusalDetails(Optional<RefusalDetails> d) {
        return new ChatResponse(id, model, content, stopReason, stopSequence, usage, logprobs, refusalLogprobs, d);
    }

    /** The concatenated text blocks. */
    public String text() {
        return ContentBlock.textOf(content);
    }
}
