package dev.switchboard.engine.skills;

import static dev.switchboard.engine.skills.SkillsTestSupport.NO_SAMPLING;
import static dev.switchboard.engine.skills.SkillsTestSupport.PLAIN;
import static dev.switchboard.engine.skills.SkillsTestSupport.REASONING;
import static dev.switchboard.engine.skills.SkillsTestSupport.named;
import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.Message;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.Sampling;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** Hints fill what the caller left unset, one test per hint, and never what the caller set. */
class SkillHintFillTest {
    private static final StackedSkill ALL = named("all", "{'hints': {'temperature': 0.2, 'top_p': 0.9, 'max_tokens': 600,"
            + " 'reasoning_effort': 'high'}}", "skill");

    private static ChatRequest.Builder ask() {
        return ChatRequest.builder("m").addMessage(Message.user("hi"));
    }

    private static ChatRequest fill(ChatRequest r, StackedSkill... stack) {
        return SkillHintFill.fill(r, List.of(stack), REASONING);
    }

    @Test
    void temperatureFillsAnUnsetTemperatureAndNeverOverridesOne() {
        StackedSkill t = named("t", "{'hints': {'temperature': 0.2}}", "skill");
        assertThat(fill(ask().build(), t).sampling().temperature()).contains(0.2);
        assertThat(fill(ask().sampling(Sampling.DEFAULT.withTemperature(Optional.of(1.1))).build(), t).sampling().temperature())
                .contains(1.1);
    }

    @Test
    void topPFillsAnUnsetTopPAndNeverOverridesOne() {
        StackedSkill p = named("p", "{'hints': {'top_p': 0.9}}", "skill");
        assertThat(fill(ask().build(), p).sampling().topP()).contains(0.9);
        assertThat(fill(ask().sampling(Sampling.DEFAULT.withTopP(Optional.of(0.5))).build(), p).sampling().topP()).contains(0.5);
    }

    @Test
    void maxTokensFillsAnUnsetLimitAndNeverOverridesOne() {
        StackedSkill m = named("m", "{'hints': {'max_tokens': 600}}", "skill");
        assertThat(fill(ask().build(), m).maxTokens()).hasValue(600);
        assertThat(fill(ask().maxTokens(50).build(), m).maxTokens()).hasValue(50);
    }

    @Test
    void reasoningEffortFillsAnUnsetEffortAndNeverOverridesAnyReasoningControl() {
        StackedSkill e = named("e", "{'hints': {'reasoning_effort': 'high'}}", "skill");
        assertThat(fill(ask().build(), e).reasoning().effort()).contains(Reasoning.Effort.HIGH);
        Reasoning low = new Reasoning(Optional.of(Reasoning.Effort.LOW), Optional.empty(), OptionalInt.empty(),
                Reasoning.Format.SEPARATE, false, Optional.empty());
        assertThat(fill(ask().reasoning(low).build(), e).reasoning()).isEqualTo(low);
        Reasoning off = new Reasoning(Optional.empty(), Optional.of(Reasoning.Mode.OFF), OptionalInt.empty(),
                Reasoning.Format.SEPARATE, false, Optional.empty());
        assertThat(fill(ask().reasoning(off).build(), e).reasoning()).as("a hint never turns thinking back on").isEqualTo(off);
    }

    @Test
    void reasoningEffortIsOnlyForModelsThatSupportReasoning() {
        ChatRequest out = SkillHintFill.fill(ask().build(), List.of(ALL), PLAIN);
        assertThat(out.reasoning().effort()).isEmpty();
        assertThat(out.maxTokens()).hasValue(600);
    }

    @Test
    void temperatureAndTopPAreOneChoice() {
        ChatRequest callerChoseTopP = fill(ask().sampling(Sampling.DEFAULT.withTopP(Optional.of(0.5))).build(), ALL);
        assertThat(callerChoseTopP.sampling().temperature()).as("the caller chose top_p; no temperature joins it").isEmpty();
        StackedSkill earlier = named("t", "{'hints': {'temperature': 0.2}}", "skills[0]");
        StackedSkill later = named("p", "{'hints': {'top_p': 0.8}}", "skills[1]");
        Sampling s = fill(ask().build(), earlier, later).sampling();
        assertThat(s.topP()).contains(0.8);
        assertThat(s.temperature()).as("the later skill's choice decides both").isEmpty();
    }

    @Test
    void aLaterSkillsHintWinsOverAnEarlierOnes() {
        StackedSkill first = named("a", "{'hints': {'temperature': 0.2, 'max_tokens': 100, 'reasoning_effort': 'low'}}", "skills[0]");
        StackedSkill second = named("b", "{'hints': {'temperature': 0.7, 'reasoning_effort': 'max'}}", "skills[1]");
        ChatRequest out = fill(ask().build(), first, second);
        assertThat(out.sampling().temperature()).contains(0.7);
        assertThat(out.maxTokens()).as("kept from the earlier skill: the later one says nothing of it").hasValue(100);
        assertThat(out.reasoning().effort()).contains(Reasoning.Effort.MAX);
    }

    @Test
    void samplingTheModelRefusesIsNeverFilledIn() {
        ChatRequest out = SkillHintFill.fill(ask().build(), List.of(ALL), NO_SAMPLING);
        assertThat(out.sampling().temperature()).isEmpty();
        assertThat(out.sampling().topP()).isEmpty();
        assertThat(out.reasoning().effort()).contains(Reasoning.Effort.HIGH);
    }

    @Test
    void aStackWithoutHintsChangesNoParameter() {
        ChatRequest r = ask().build();
        assertThat(fill(r, named("p", "{'system_prompt': 'x'}", "skill"))).isEqualTo(r);
    }
}
