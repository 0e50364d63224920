package dev.switchboard.engine.catalog;

import dev.switchboard.model.Reasoning.Effort;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How a reasoning model family reacts to the controls: {@code HYBRID} families honour a hard on/off switch;
 * {@code ALWAYS} families always reason and effort only sets how much; {@code NONE} takes no controls.
 * {@code efforts} lists the levels the upstream accepts (others are clamped to the nearest).
 * {@code effortAs} says how an effort reaches an upstream that offers both a token budget and named levels
 * (Gemini 2.5 knows only {@code thinkingBudget}, Gemini 3 takes {@code thinkingLevel}); empty when the
 * operator did not say, in which case the adapter decides. {@code budget} is the range of reasoning budgets
 * the upstream accepts, when the catalog knows it.
 */
public record ReasoningProfile(Family family, List<Effort> efforts, Optional<EffortAs> effortAs,
                               Optional<ThinkingBudget> budget) {
    public static final ReasoningProfile NONE = new ReasoningProfile(Family.NONE, List.of());

    public enum Family { HYBRID, ALWAYS, NONE }

    /** An effort sent as a token budget, or as a named level. */
    public enum EffortAs { BUDGET, LEVEL }

    public ReasoningProfile {
        Objects.requireNonNull(family, "family");
        efforts = List.copyOf(efforts);
        Objects.requireNonNull(effortAs, "effortAs");
        Objects.requireNonNull(budget, "budget");
    }

    /** A profile without a known budget range. */
    public ReasoningProfile(Family family, List<Effort> efforts, Optional<EffortAs> effortAs) {
        this(family, efforts, effortAs, Optional.empty());
    }

    /** A profile that leaves the effort's shape to the adapter. */
    public ReasoningProfile(Family family, List<Effort> efforts) {
        this(family, efforts, Optional.empty());
    }
}
