package dev.switchboard.engine.responses;

import dev.switchboard.engine.provider.Attempt;
import dev.switchboard.engine.provider.EventSource;
import dev.switchboard.engine.provider.ProviderAdapter;
import dev.switchboard.engine.upstream.UpstreamFailure;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.StreamEvent.Delta;
import dev.switchboard.model.Usage;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * A provider that records every request it gets and answers with the next scripted response, plainly
 * or as the matching event stream; a stream may be scripted to fail after a number of events.
 */
final class ScriptedAdapter implements ProviderAdapter {
    final List<ChatRequest> requests = new ArrayList<>();
    private final Deque<ChatResponse> answers = new ArrayDeque<>();
    private int failAfterEvents = -1;

    ScriptedAdapter answer(ChatResponse r) {
        answers.add(r);
        return this;
    }

    /** The next stream breaks (a reset) after this many events. */
    ScriptedAdapter failStreamAfter(int events) {
        failAfterEvents = events;
        return this;
    }

    ChatRequest last() {
        return requests.getLast();
    }

    @Override
    public ChatResponse complete(Attempt attempt) {
        requests.add(attempt.request());
        return answers.remove();
    }

    @Override
    public EventSource stream(Attempt attempt) {
        requests.add(attempt.request());
        Deque<StreamEvent> events = new ArrayDeque<>(events(answers.remove()));
        int failAt = failAfterEvents;
        failAfterEvents = -1;
        return new EventSource() {
            private int sent;

            @Override
            public Optional<StreamEvent> next() {
                if (failAt >= 0 && sent >= failAt) {
                    throw UpstreamFailure.of(UpstreamFailure.Kind.RESET, "reset");
                }
                sent++;
                return Optional.ofNullable(events.poll());
            }

            @Override
            public void close() {
            }
        };
    }

    static List<StreamEvent> events(ChatResponse r) {
        List<StreamEvent> out = new ArrayList<>();
        out.add(new StreamEvent.MessageStart(r.id(), r.model(), Usage.of(r.usage().inputTokens(), 0)));
        for (int n = 0; n < r.content().size(); n++) {
            int i = n;
            ContentBlock b = r.content().get(i);
            switch (b) {
                case ContentBlock.Text t -> {
                    out.add(new StreamEvent.BlockStart(i, ContentBlock.Text.of("")));
                    out.add(new StreamEvent.BlockDelta(i, new Delta.TextDelta(t.text())));
                }
                case ContentBlock.Thinking t -> {
                    out.add(new StreamEvent.BlockStart(i, ContentBlock.Thinking.of("")));
                    out.add(new StreamEvent.BlockDelta(i, new Delta.ThinkingDelta(t.text())));
                    t.signature().ifPresent(s -> out.add(new StreamEvent.BlockDelta(i, new Delta.SignatureDelta(s))));
                }
                case ContentBlock.ToolCall c -> {
                    out.add(new StreamEvent.BlockStart(i, new ContentBlock.ToolCall(c.id(), c.name(), "", c.signature())));
                    out.add(new StreamEvent.BlockDelta(i, new Delta.ArgumentsDelta(c.argumentsJson())));
                }
                default -> out.add(new StreamEvent.BlockStart(i, b));
            }
            out.add(new StreamEvent.BlockStop(i));
        }
        out.add(new StreamEvent.MessageDelta(r.stopReason(), r.stopSequence(), r.usage()));
        out.add(new StreamEvent.MessageStop());
        return out;
    }
}
