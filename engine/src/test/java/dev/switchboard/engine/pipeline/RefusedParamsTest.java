package dev.switchboard.engine.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.engine.catalog.Capabilities;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.Pricing;
import dev.switchboard.engine.catalog.ReasoningProfile;
import dev.switchboard.engine.catalog.ResponsesRequirement;
import dev.switchboard.engine.catalog.RouteTarget;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.Message;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Logprobs a model refuses: left out (all of them, or only the alternatives) and named. */
class RefusedParamsTest {

    private static ModelEntry model(Set<String> refused) {
        return new ModelEntry("m", List.of(), Optional.empty(), "openai", 1000, 100, new Capabilities(true, false, true, false, true),
                new ReasoningProfile(ReasoningProfile.Family.ALWAYS, List.of()), Pricing.FREE, List.of(),
                List.of(new RouteTarget("openai", "m")), refused, ResponsesRequirement.NOT_NEEDED, Optional.empty());
    }

    private static ChatRequest asking(int top) {
        return ChatRequest.builder("m").messages(List.of(Message.user("hi"))).logprobs(OptionalInt.of(top)).build();
    }

    @Test
    void aModelRefusingLogprobsGetsNoneAndTheyAreNamed() {
        ModelEntry model = model(Set.of("logprobs", "top_logprobs"));

        assertThat(RefusedParams.strip(asking(3), model).logprobs()).isEmpty();
        assertThat(RefusedParams.named(asking(3), model)).containsExactly("logprobs", "top_logprobs");
        assertThat(RefusedParams.named(asking(0), model)).containsExactly("logprobs");
    }

    @Test
    void aModelRefusingOnlyAlternativesStillGetsTheChosenTokensLogprobs() {
        ModelEntry model = model(Set.of("top_logprobs"));

        assertThat(RefusedParams.strip(asking(3), model).logprobs()).hasValue(0);
        assertThat(RefusedParams.named(asking(3), model)).containsExactly("top_logprobs");
        assertThat(RefusedParams.named(asking(0), model)).isEmpty();
        assertThat(RefusedParams.strip(asking(0), model).logprobs()).hasValue(0);
    }
}
