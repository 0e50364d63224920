package dev.switchboard.engine.route;

import dev.switchboard.engine.provider.EventSource;
import dev.switchboard.engine.upstream.UpstreamFailure;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.StreamEvent.Delta;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * When a streamed attempt counts as answered: at its first event that carries content (text, thinking, a
 * tool call) or ends the answer. Events before it carry nothing the client would miss (Anthropic's
 * {@code message_start} and {@code ping}, an OpenAI role chunk with empty content), so they are held and
 * the attempt may still fail over invisibly; an upstream that fails right after {@code message_start}
 * costs the caller nothing. A stream that ends, or reports an error, before any content is a failed
 * attempt.
 */
final class FirstContent {
    private FirstContent() {
    }

    /**
     * Reads {@code source} up to its first content event.
     *
     * @throws UpstreamFailure when the stream fails, reports an error or ends first; {@code source} is
     *     closed then
     */
    static OpenStream open(EventSource source) {
        List<StreamEvent> held = new ArrayList<>();
        try {
            while (true) {
                Optional<StreamEvent> next = source.next();
                if (next.isEmpty()) {
                    throw UpstreamFailure.of(UpstreamFailure.Kind.EMPTY_STREAM, held.isEmpty()
                            ? "the stream ended before its first event" : "the stream ended before any content");
                }
                StreamEvent event = next.get();
                if (event instanceof StreamEvent.StreamError e) {
                    throw UpstreamFailure.http(e.error().status(), e.error(), Optional.empty());
                }
                held.add(event);
                if (commits(event)) {
                    return new OpenStream(held, source);
                }
            }
        } catch (RuntimeException e) {
            source.close();
            throw e;
        }
    }

    /** Whether the client must see {@code event}: it carries content or ends the answer. */
    static boolean commits(StreamEvent event) {
        return switch (event) {
            case StreamEvent.MessageStart s -> false;
            case StreamEvent.BlockStart s -> switch (s.block()) {
                case ContentBlock.Text t -> !t.text().isEmpty();
                case ContentBlock.Refusal r -> !r.text().isEmpty();
                case ContentBlock.Thinking t -> !t.text().isEmpty();
                default -> true; // a tool call's name, a redacted trace, an opaque block: content already
            };
            case StreamEvent.BlockDelta d -> switch (d.delta()) {
                case Delta.TextDelta t -> !t.text().isEmpty();
                case Delta.ThinkingDelta t -> !t.text().isEmpty();
                case Delta.ArgumentsDelta a -> !a.partialJson().isEmpty();
                case Delta.SignatureDelta s -> false;
                case Delta.LogprobsDelta l -> false;
            };
            case StreamEvent.BlockStop s -> false;
            case StreamEvent.MessageDelta d -> true;
            case StreamEvent.MessageStop s -> true;
            case StreamEvent.StreamError e -> true;
        };
    }
}
