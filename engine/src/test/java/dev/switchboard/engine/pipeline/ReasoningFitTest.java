package dev.switchboard.engine.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.engine.catalog.ReasoningProfile;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.Reasoning.Effort;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class ReasoningFitTest {
    private static final ReasoningProfile HYBRID = new ReasoningProfile(ReasoningProfile.Family.HYBRID,
            List.of(Effort.LOW, Effort.MEDIUM, Effort.HIGH));
    private static final ReasoningProfile ALWAYS = new ReasoningProfile(ReasoningProfile.Family.ALWAYS,
            List.of(Effort.LOW, Effort.MEDIUM, Effort.HIGH));

    private static Reasoning effort(Effort e) {
        return new Reasoning(Optional.of(e), Optional.empty(), OptionalInt.empty(), Reasoning.Format.SEPARATE, false,
                Optional.empty());
    }

    private static Reasoning mode(Reasoning.Mode m) {
        return new Reasoning(Optional.empty(), Optional.of(m), OptionalInt.of(2048), Reasoning.Format.SEPARATE, false,
                Optional.empty());
    }

    @Test
    void levelsAnUpstreamDoesNotAcceptAreClampedToTheNearestOne() {
        assertThat(ReasoningFit.fit(effort(Effort.MAX), HYBRID).effort()).contains(Effort.HIGH);
        assertThat(ReasoningFit.fit(effort(Effort.XHIGH), HYBRID).effort()).contains(Effort.HIGH);
        assertThat(ReasoningFit.fit(effort(Effort.MINIMAL), HYBRID).effort()).contains(Effort.LOW);
        assertThat(ReasoningFit.fit(effort(Effort.MEDIUM), HYBRID).effort()).contains(Effort.MEDIUM);
    }

    @Test
    void aHybridFamilyKeepsTheHardOffSwitch() {
        Reasoning off = ReasoningFit.fit(mode(Reasoning.Mode.OFF), HYBRID);
        assertThat(off.mode()).contains(Reasoning.Mode.OFF);
        assertThat(ReasoningFit.fit(effort(Effort.NONE), HYBRID).mode()).contains(Reasoning.Mode.OFF);
    }

    @Test
    void aFamilyThatAlwaysReasonsGetsItsLowestEffortInsteadOfOff() {
        Reasoning off = ReasoningFit.fit(mode(Reasoning.Mode.OFF), ALWAYS);
        assertThat(off.mode()).isEmpty();
        assertThat(off.effort()).contains(Effort.LOW);
        assertThat(off.budgetTokens()).hasValue(2048);
        assertThat(off.exclude()).as("the caller turned thinking off: none of it is shown").isTrue();
    }

    @Test
    void anEffortSwitchesThinkingOnAndABudgetImpliesALevel() {
        Reasoning fromEffort = ReasoningFit.fit(effort(Effort.HIGH), HYBRID);
        assertThat(fromEffort.mode()).contains(Reasoning.Mode.ON);
        Reasoning budgetOnly = new Reasoning(Optional.empty(), Optional.empty(), OptionalInt.of(10_000),
                Reasoning.Format.SEPARATE, false, Optional.empty());
        Reasoning fitted = ReasoningFit.fit(budgetOnly, HYBRID);
        assertThat(fitted.effort()).contains(Effort.HIGH);
        assertThat(fitted.effortImplied()).as("not the caller's own effort").isTrue();
        assertThat(fitted.ownEffort()).isEmpty();
        assertThat(fitted.budgetTokens()).hasValue(10_000);
        assertThat(fromEffort.effortImplied()).isFalse();
        assertThat(fitted.mode()).contains(Reasoning.Mode.ON);
    }

    @Test
    void budgetsAndOnPassThrough() {
        Reasoning on = ReasoningFit.fit(mode(Reasoning.Mode.ON), ALWAYS);
        assertThat(on.mode()).contains(Reasoning.Mode.ON);
        assertThat(on.budgetTokens()).hasValue(2048);
    }
}
