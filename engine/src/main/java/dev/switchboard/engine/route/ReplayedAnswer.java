package dev.switchboard.engine.route;

import dev.switchboard.engine.provider.EventSource;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.StreamEvent.Delta;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.TokenLogprob;
import dev.switchboard.model.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A complete answer told as a stream, for a streamed caller served by a provider configured not to stream
 * ({@code streaming: false}): one event sequence per block, the final usage on {@code MessageDelta}. The
 * client gets the same events a streaming provider would have sent, only all at once.
 */
final class ReplayedAnswer {
    private ReplayedAnswer() {
    }

    static EventSource of(ChatResponse answer) {
        List<StreamEvent> events = new ArrayList<>();
        events.add(new StreamEvent.MessageStart(answer.id(), answer.model(), Usage.of(answer.usage().inputTokens(), 0)));
        for (int n = 0; n < answer.content().size(); n++) {
            int i = n;
            switch (answer.content().get(i)) {
                case ContentBlock.Text t -> {
                    events.add(new StreamEvent.BlockStart(i, new ContentBlock.Text("", t.cache(), Optional.empty())));
                    events.add(new StreamEvent.BlockDelta(i, new Delta.TextDelta(t.text())));
                    t.signature().ifPresent(s -> events.add(new StreamEvent.BlockDelta(i, new Delta.SignatureDelta(s))));
                }
                case ContentBlock.Thinking t -> {
                    events.add(new StreamEvent.BlockStart(i, ContentBlock.Thinking.of("")));
                    events.add(new StreamEvent.BlockDelta(i, new Delta.ThinkingDelta(t.text())));
                    t.signature().ifPresent(s -> events.add(new StreamEvent.BlockDelta(i, new Delta.SignatureDelta(s))));
                }
                case ContentBlock.ToolCall c -> {
                    events.add(new StreamEvent.BlockStart(i, new ContentBlock.ToolCall(c.id(), c.name(), "", c.signature())));
                    events.add(new StreamEvent.BlockDelta(i, new Delta.ArgumentsDelta(c.argumentsJson())));
                }
                case ContentBlock other -> events.add(new StreamEvent.BlockStart(i, other));
            }
            events.add(new StreamEvent.BlockStop(i));
        }
        // on the first text block, where a streaming provider would have sent them; a refusal's on the refusal
        logprobsOn(events, answer, ContentBlock.Text.class, answer.logprobs());
        logprobsOn(events, answer, ContentBlock.Refusal.class, answer.refusalLogprobs());
        events.add(new StreamEvent.MessageDelta(answer.stopReason(), answer.stopSequence(), answer.usage(),
                answer.refusalDetails()));
        events.add(new StreamEvent.MessageStop());
        return EventSource.of(events);
    }

    /** {@code tokens}, if any, as a LogprobsDelta just before the first block of {@code kind} stops. */
    private static void logprobsOn(List<StreamEvent> events, ChatResponse answer, Class<? extends ContentBlock> kind,
                                   List<TokenLogprob> tokens) {
        if (tokens.isEmpty()) {
            return;
        }
        answer.content().stream().filter(kind::isInstance).findFirst().map(answer.content()::indexOf)
                .ifPresent(at -> events.add(events.indexOf(new StreamEvent.BlockStop(at)),
                        new StreamEvent.BlockDelta(at, new Delta.LogprobsDelta(tokens))));
    }
}
