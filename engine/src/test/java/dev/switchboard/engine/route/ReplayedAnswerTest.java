package dev.switchboard.engine.route;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.engine.provider.EventSource;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.RefusalDetails;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.StreamAccumulator;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.TokenLogprob;
import dev.switchboard.model.Usage;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReplayedAnswerTest {

    @Test
    void aRefusalTellsItsLogprobsAndDetailsAsTheStreamWould() {
        ChatResponse answer = new ChatResponse("id", "m", List.of(ContentBlock.Text.of("Partly. "),
                new ContentBlock.Refusal("No.")), StopReason.REFUSAL, Optional.empty(), Usage.of(5, 3),
                List.of(TokenLogprob.of("Partly", -0.1)), List.of(TokenLogprob.of("No", -0.2)),
                Optional.of(new RefusalDetails(Optional.of("cyber"), Optional.empty())));

        StreamAccumulator acc = new StreamAccumulator();
        try (EventSource events = ReplayedAnswer.of(answer)) {
            for (Optional<StreamEvent> e = events.next(); e.isPresent(); e = events.next()) {
                acc.accept(e.get());
            }
        }

        assertThat(acc.response()).isEqualTo(answer);
    }
}
