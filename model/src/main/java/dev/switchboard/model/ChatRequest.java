package dev.switchboard.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A chat request in the canonical model: what the caller asked for, independent of the wire format it
 * arrived in. Client translators build it, the engine adjusts it (defaults, caps, fallbacks), upstream
 * translators render it.
 *
 * <p>{@code model} is the model id as the caller gave it (it may be an alias). {@code fallbackModels} are
 * the caller's cross-model fallbacks ({@code models} / {@code fallbacks}), in order, at most
 * {@link #MAX_FALLBACK_MODELS} (spec 8), however the caller named them.
 * {@code transforms}, {@code skills} and {@code ignoreDefaults} are service-only and never forwarded;
 * {@code skills} are the skills the caller named, in order (body fields first, then the header).
 * {@code betas} are the feature flags the caller asked for in its format's beta header (the messages
 * format's {@code anthropic-beta}), in order; they mean something only to an upstream of that format, which
 * gets those it accepts.
 * {@code logprobs}, when present, asks for the log probabilities of the answer's tokens with that many
 * alternatives per token (0: the chosen tokens only); upstreams whose format has no such answer field name it
 * as not carried.
 */
public record ChatRequest(
        String model,
        List<ContentBlock> system,
        List<Message> messages,
        List<ToolSpec> tools,
        ToolChoice toolChoice,
        Optional<Boolean> parallelToolCalls,
        Sampling sampling,
        OptionalInt maxTokens,
        List<String> stop,
        boolean stream,
        Reasoning reasoning,
        ResponseFormat responseFormat,
        List<String> fallbackModels,
        List<String> transforms,
        Optional<String> user,
        Map<String, String> metadata,
        boolean ignoreDefaults,
        List<SkillRef> skills,
        Passthrough passthrough,
        List<String> betas,
        OptionalInt logprobs) {
    /** Spec 8: a request names at most 3 fallback models. */
    public static final int MAX_FALLBACK_MODELS = 3;

    public ChatRequest {
        Objects.requireNonNull(model, "model");
        system = List.copyOf(system);
        messages = List.copyOf(messages);
        tools = List.copyOf(tools);
        Objects.requireNonNull(toolChoice, "toolChoice");
        Objects.requireNonNull(parallelToolCalls, "parallelToolCalls");
        Objects.requireNonNull(sampling, "sampling");
        Objects.requireNonNull(maxTokens, "maxTokens");
        stop = List.copyOf(stop);
        Objects.requireNonNull(reasoning, "reasoning");
        Objects.requireNonNull(responseFormat, "responseFormat");
        fallbackModels = List.copyOf(fallbackModels);
        transforms = List.copyOf(transforms);
        Objects.requireNonNull(user, "user");
        metadata = Map.copyOf(metadata);
        skills = List.copyOf(skills);
        Objects.requireNonNull(passthrough, "passthrough");
        betas = List.copyOf(betas);
        Objects.requireNonNull(logprobs, "logprobs");
    }

    public static Builder builder(String model) {
        return new Builder(model);
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    public ChatRequest withModel(String newModel) {
        return toBuilder().model(newModel).build();
    }

    /** True when the conversation ends with an assistant turn holding text: the model should continue it (prefill). */
    public boolean endsWithPrefill() {
        if (messages.isEmpty()) {
            return false;
        }
        Message last = messages.get(messages.size() - 1);
        return last.role() == Role.ASSISTANT && !last.text().isEmpty()
                && last.content().stream().noneMatch(b -> b instanceof ContentBlock.ToolCall);
    }

    /** Mutable builder; every field defaults to "not set". */
    public static final class Builder {
        private String model;
        private List<ContentBlock> system = new ArrayList<>();
        private List<Message> messages = new ArrayList<>();
        private List<ToolSpec> tools = new ArrayList<>();
        private ToolChoice toolChoice = ToolChoice.AUTO;
        private Optional<Boolean> parallelToolCalls = Optional.empty();
        private Sampling sampling = Sampling.DEFAULT;
        private OptionalInt maxTokens = OptionalInt.empty();
        private List<String> stop = new ArrayList<>();
        private boolean stream;
        private Reasoning reasoning = Reasoning.NONE;
        private ResponseFormat responseFormat = ResponseFormat.TEXT;
        private List<String> fallbackModels = new ArrayList<>();
        private List<String> transforms = new ArrayList<>();
        private Optional<String> user = Optional.empty();
        private Map<String, String> metadata = Map.of();
        private boolean ignoreDefaults;
        private List<SkillRef> skills = new ArrayList<>();
        private Passthrough passthrough = Passthrough.NONE;
        private List<String> betas = new ArrayList<>();
        private OptionalInt logprobs = OptionalInt.empty();

        private Builder(String model) {
            this.model = model;
        }

        private Builder(ChatRequest r) {
            model = r.model;
            system = new ArrayList<>(r.system);
            messages = new ArrayList<>(r.messages);
            tools = new ArrayList<>(r.tools);
            toolChoice = r.toolChoice;
            parallelToolCalls = r.parallelToolCalls;
            sampling = r.sampling;
            maxTokens = r.maxTokens;
            stop = new ArrayList<>(r.stop);
            stream = r.stream;
            reasoning = r.reasoning;
            responseFormat = r.responseFormat;
            fallbackModels = new ArrayList<>(r.fallbackModels);
            transforms = new ArrayList<>(r.transforms);
            user = r.user;
            metadata = r.metadata;
            ignoreDefaults = r.ignoreDefaults;
            skills = new ArrayList<>(r.skills);
            passthrough = r.passthrough;
            betas = new ArrayList<>(r.betas);
            logprobs = r.logprobs;
        }

        public Builder model(String v) { model = v; return this; }
        public Builder system(List<ContentBlock> v) { system = new ArrayList<>(v); return this; }
        public Builder messages(List<Message> v) { messages = new ArrayList<>(v); return this; }
        public Builder addMessage(Message m) { messages.add(m); return this; }
        public Builder tools(List<ToolSpec> v) { tools = new ArrayList<>(v); return this; }
        public Builder toolChoice(ToolChoice v) { toolChoice = v; return this; }
        public Builder parallelToolCalls(Optional<Boolean> v) { parallelToolCalls = v; return this; }
        public Builder sampling(Sampling v) { sampling = v; return this; }
        public Builder maxTokens(OptionalInt v) { maxTokens = v; return this; }
        public Builder maxTokens(int v) { maxTokens = OptionalInt.of(v); return this; }
        public Builder stop(List<String> v) { stop = new ArrayList<>(v); return this; }
        public Builder stream(boolean v) { stream = v; return this; }
        public Builder reasoning(Reasoning v) { reasoning = v; return this; }
        public Builder responseFormat(ResponseFormat v) { responseFormat = v; return this; }
        public Builder fallbackModels(List<String> v) { fallbackModels = new ArrayList<>(v); return this; }
        public Builder transforms(List<String> v) { transforms = new ArrayList<>(v); return this; }
        public Builder user(Optional<String> v) { user = v; return this; }
        public Builder metadata(Map<String, String> v) { metadata = v; return this; }
        public Builder ignoreDefaults(boolean v) { ignoreDefaults = v; return this; }
        public Builder skills(List<SkillRef> v) { skills = new ArrayList<>(v); return this; }
        public Builder passthrough(Passthrough v) { passthrough = v; return this; }
        public Builder betas(List<String> v) { betas = new ArrayList<>(v); return this; }
        public Builder logprobs(OptionalInt v) { logprobs = v; return this; }

        public ChatRequest build() {
            return new ChatRequest(model, system, messages, tools, toolChoice, parallelToolCalls, sampling, maxTokens,
                    stop, stream, reasoning, responseFormat, fallbackModels, transforms, user, metadata,
                    ignoreDefaults, skills, passthrough, betas, logprobs);
        }
    }
}
