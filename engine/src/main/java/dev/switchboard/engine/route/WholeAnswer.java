package dev.switchboard.engine.route;

import dev.switchboard.engine.provider.EventSource;
import dev.switchboard.engine.upstream.UpstreamFailure;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.StreamAccumulator;
import dev.switchboard.model.StreamEvent;
import java.util.Optional;

/**
 * A complete answer assembled from a streamed attempt. The gateway streams from upstreams even when its
 * caller wants the whole answer: a non-streamed call shows no byte until the answer is done, so a provider
 * that hangs could only be told from a slow one by the total deadline, while a stream lets the first-byte
 * and idle deadlines apply. The answer is the canonical events folded together, exactly what a
 * non-streamed call would have returned.
 */
final class WholeAnswer {
    private WholeAnswer() {
    }

    /**
     * Reads {@code source} to its end and closes it.
     *
     * @throws UpstreamFailure when the stream fails, reports an error or ends before the answer is complete
     */
    static ChatResponse read(EventSource source) {
        try (source) {
            StreamAccumulator answer = new StreamAccumulator();
            while (true) {
                Optional<StreamEvent> next = source.next();
                if (next.isEmpty()) {
                    throw UpstreamFailure.of(answer.started() ? UpstreamFailure.Kind.TRUNCATED : UpstreamFailure.Kind.EMPTY_STREAM, answer.started()
                            ? "the stream ended before the answer was complete" : "the stream ended before its first event");
                }
                StreamEvent event = next.get();
                if (event instanceof StreamEvent.StreamError e) {
                    throw UpstreamFailure.http(e.error().status(), e.error(), Optional.empty());
                }
                answer.accept(event);
                if (event instanceof StreamEvent.MessageStop) {
                    return answer.response();
                }
            }
        }
    }
}
