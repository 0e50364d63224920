package dev.switchboard.engine.pipeline;

import dev.switchboard.engine.provider.Attempt;
import dev.switchboard.engine.provider.EventSource;
import dev.switchboard.engine.provider.ProviderAdapter;
import dev.switchboard.engine.upstream.UpstreamFailure;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.Usage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A provider adapter for pipeline tests of whole answers: records every attempt in {@link #attempts}, resets the
 * connection of an upstream model named in {@link #failing}, and answers the others with {@link #answerText}.
 * Streams are not expected.
 */
final class RecordingAdapter implements ProviderAdapter {
    final List<Attempt> attempts = new ArrayList<>();
    final Set<String> failing = new HashSet<>();
    String answerText;

    RecordingAdapter(String answerText) {
        this.answerText = answerText;
    }

    @Override
    public ChatResponse complete(Attempt a) {
        attempts.add(a);
        if (failing.contains(a.upstreamModel())) {
            throw UpstreamFailure.of(UpstreamFailure.Kind.RESET, "reset");
        }
        return new ChatResponse("id", a.upstreamModel(), List.of(ContentBlock.Text.of(answerText)), StopReason.END_TURN,
                Optional.empty(), Usage.of(1, 1));
    }

    @Override
    public EventSource stream(Attempt a) {
        throw new UnsupportedOperationException();
    }
}
