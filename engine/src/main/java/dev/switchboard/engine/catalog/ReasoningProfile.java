package dev.switchboard.engine.catalog;

import dev.switchboard.model.Reasoning.Effort;
import java.util.List;
import java.util.Objects;

/**
 * How a reasoning model family reacts to the controls: {@code HYBRID} families honour a hard on/off switch;
 * {@code ALWAYS} families always reason and effort only sets how much; {@code NONE} takes no controls.
 * {@code efforts} lists the levels the upstream accepts (others are clamped to the nearest).
 */
public record ReasoningProfile(Family family, List<Effort> efforts) {
    public static final ReasoningProfile NONE = new ReasoningProfile(Family.NONE, List.of());

    public enum Family { HYBRID, ALWAYS, NONE }

    public ReasoningProfile {
        Objects.requireNonNull(family, "family");
        efforts = List.copyOf(efforts);
    }
}
