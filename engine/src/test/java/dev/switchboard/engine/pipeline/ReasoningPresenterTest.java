package dev.switchboard.engine.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.StreamAccumulator;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.StreamEvent.Delta;
import dev.switchboard.model.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class ReasoningPresenterTest {
    private static Reasoning reasoning(Reasoning.Format format, boolean exclude) {
        return new Reasoning(Optional.empty(), Optional.empty(), OptionalInt.empty(), format, exclude, Optional.empty());
    }

    private final ChatResponse answer = new ChatResponse("id", "m",
            List.of(ContentBlock.Thinking.of("hmm"), ContentBlock.Text.of("Hi")), StopReason.END_TURN, Optional.empty(),
            new Usage(5, 9, 4, 0, 0, 0, Usage.Provenance.REPORTED));

    private static List<StreamEvent> stream() {
        return List.of(new StreamEvent.MessageStart("id", "m", Usage.EMPTY),
                new StreamEvent.BlockStart(0, ContentBlock.Thinking.of("")),
                new StreamEvent.BlockDelta(0, new Delta.ThinkingDelta("hmm")),
                new StreamEvent.BlockStop(0),
                new StreamEvent.BlockStart(1, ContentBlock.Text.of("")),
                new StreamEvent.BlockDelta(1, new Delta.TextDelta("Hi")),
                new StreamEvent.BlockStop(1),
                new StreamEvent.MessageDelta(StopReason.END_TURN, Optional.empty(), Usage.of(5, 9)),
                new StreamEvent.MessageStop());
    }

    private static ChatResponse present(ReasoningPresenter p) {
        StreamAccumulator acc = new StreamAccumulator();
        List<StreamEvent> out = new ArrayList<>();
        for (StreamEvent e : stream()) {
            out.addAll(p.present(e));
        }
        out.forEach(acc::accept);
        return acc.response();
    }

    @Test
    void separateKeepsTheTrace() {
        ReasoningPresenter p = new ReasoningPresenter(Reasoning.NONE);
        assertThat(p.present(answer)).isEqualTo(answer);
        assertThat(present(new ReasoningPresenter(Reasoning.NONE)).content()).hasSize(2);
    }

    @Test
    void excludeDropsTheTraceButKeepsItsTokens() {
        ChatResponse shown = new ReasoningPresenter(reasoning(Reasoning.Format.SEPARATE, true)).present(answer);
        assertThat(shown.content()).containsExactly(ContentBlock.Text.of("Hi"));
        assertThat(shown.usage().reasoningTokens()).isEqualTo(4);
        ChatResponse streamed = present(new ReasoningPresenter(reasoning(Reasoning.Format.SEPARATE, true)));
        assertThat(streamed.content()).containsExactly(ContentBlock.Text.of("Hi"));
    }

    @Test
    void inlineWrapsTheTraceInThinkTags() {
        ChatResponse shown = new ReasoningPresenter(reasoning(Reasoning.Format.INLINE, false)).present(answer);
        assertThat(shown.text()).isEqualTo("<think>hmm</think>\nHi");
        ChatResponse streamed = present(new ReasoningPresenter(reasoning(Reasoning.Format.INLINE, false)));
        assertThat(streamed.text()).isEqualTo("<think>hmm</think>\nHi");
    }
}
