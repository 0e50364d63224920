package dev.switchboard.engine.skills;

import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.extend.SkillHints;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.Sampling;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * A skill stack's parameter hints (spec 2.11) in the places the request left unset, for one model. Precedence,
 * highest first: the caller's own values; the hints, a later skill's over an earlier one's; then (applied
 * after this, by the prepare stage) the caller's saved per-model defaults and the provider's defaults.
 *
 * <ul>
 *   <li>{@code temperature} and {@code top_p} are one choice, as everywhere (spec 2.2: use one or the other):
 *       when the caller set either, neither hint applies; among the skills, the last one hinting either
 *       decides both.
 *   <li>{@code max_tokens} applies when the caller set none; the prepare stage caps it at the model's
 *       {@code max_output_tokens} like any value.
 *   <li>{@code reasoning_effort} applies only to a model with {@code supports_reasoning}, and only when the
 *       caller sent no reasoning control at all (a hint never turns {@code thinking: off} back on).
 *   <li>A sampling parameter the model refuses ({@code refused_params}) is never filled in: a hint must not
 *       make the upstream refuse a request the caller sent without it.
 * </ul>
 */
public final class SkillHintFill {
    private SkillHintFill() {
    }

    /** The stack's hints merged in stack order: a later skill's value wins. */
    public static SkillHints merged(List<StackedSkill> stack) {
        OptionalDouble temperature = OptionalDouble.empty();
        OptionalDouble topP = OptionalDouble.empty();
        OptionalInt maxTokens = OptionalInt.empty();
        Optional<String> effort = Optional.empty();
        for (StackedSkill s : stack) {
            SkillHints h = s.body().hints();
            if (h.temperature().isPresent() || h.topP().isPresent()) {
                temperature = h.temperature();
                topP = h.topP();
            }
            if (h.maxTokens().isPresent()) {
                maxTokens = h.maxTokens();
            }
            if (h.reasoningEffort().isPresent()) {
                effort = h.reasoningEffort();
            }
        }
        return new SkillHints(temperature, topP, maxTokens, effort);
    }

    /** {@code request} with the stack's hints where it left the parameter unset, as far as {@code model} takes them. */
    public static ChatRequest fill(ChatRequest request, List<StackedSkill> stack, ModelEntry model) {
        SkillHints hints = merged(stack);
        if (hints.isEmpty()) {
            return request;
        }
        ChatRequest.Builder b = request.toBuilder();
        Sampling s = request.sampling();
        if (s.temperature().isEmpty() && s.topP().isEmpty()) {
            b.sampling(s.withTemperature(hint(hints.temperature(), "temperature", model))
                    .withTopP(hint(hints.topP(), "top_p", model)));
        }
        if (request.maxTokens().isEmpty() && hints.maxTokens().isPresent()) {
            b.maxTokens(hints.maxTokens());
        }
        Reasoning r = request.reasoning();
        Optional<Reasoning.Effort> effort = hints.reasoningEffort().flatMap(Reasoning.Effort::parse);
        if (effort.isPresent() && model.capabilities().supportsReasoning() && !r.requested()) {
            b.reasoning(new Reasoning(effort, r.mode(), r.budgetTokens(), r.format(), r.exclude(), r.summary()));
        }
        return b.build();
    }

    private static Optional<Double> hint(OptionalDouble value, String name, ModelEntry model) {
        return value.isPresent() && !model.refusedParams().contains(name) ? Optional.of(value.getAsDouble()) : Optional.empty();
    }
}
