package dev.switchboard.engine.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.engine.catalog.Capabilities;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.Pricing;
import dev.switchboard.engine.catalog.ReasoningProfile;
import dev.switchboard.engine.catalog.RouteTarget;
import dev.switchboard.engine.catalog.ThinkingBudget;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.Message;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.Reasoning.Effort;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** A caller's thinking budget is fitted to the model's catalog range ({@code reasoning.budget}) before any upstream sees it. */
class ReasoningBudgetRangeTest {

    private static ModelEntry model(ThinkingBudget budget, int maxOutput) {
        ReasoningProfile profile = new ReasoningProfile(ReasoningProfile.Family.HYBRID, List.of(Effort.LOW, Effort.MEDIUM, Effort.HIGH),
                Optional.empty(), Optional.of(budget));
        return new ModelEntry("m", List.of(), Optional.empty(), "t", 1_000_000, maxOutput,
                new Capabilities(true, false, true, true, true), profile, Pricing.FREE, List.of(), List.of(new RouteTarget("p", "u")));
    }

    private static ChatRequest budget(int tokens) {
        return ChatRequest.builder("m").addMessage(Message.user("think")).reasoning(new Reasoning(Optional.empty(),
                Optional.of(Reasoning.Mode.ON), OptionalInt.of(tokens), Reasoning.Format.SEPARATE, false, Optional.empty())).build();
    }

    @Test
    void aBudgetAboveTheRangeIsClampedToItsTop() {
        ChatRequest shaped = RequestShaper.shape(budget(60_000), model(new ThinkingBudget.Range(1, 24_576, false), 65_536));
        assertThat(shaped.reasoning().budgetTokens()).hasValue(24_576);
    }

    @Test
    void aBudgetBelowTheRangeIsRaisedToItsBottomAndStaysBelowMaxTokensWhereRequired() {
        assertThat(RequestShaper.shape(budget(100), model(new ThinkingBudget.Range(1024, 32_000, true), 64_000))
                .reasoning().budgetTokens()).hasValue(1024);
        ChatRequest capped = budget(30_000).toBuilder().maxTokens(8000).build();
        assertThat(RequestShaper.shape(capped, model(new ThinkingBudget.Range(1024, 32_000, true), 64_000))
                .reasoning().budgetTokens()).hasValue(7999);
    }

    @Test
    void aModelThatTakesLevelsOnlyGetsTheImpliedLevelAndNoBudget() {
        Reasoning r = RequestShaper.shape(budget(20_000), model(new ThinkingBudget.Refused(), 64_000)).reasoning();
        assertThat(r.budgetTokens()).isEmpty();
        assertThat(r.effort()).contains(Effort.HIGH);
    }
}
