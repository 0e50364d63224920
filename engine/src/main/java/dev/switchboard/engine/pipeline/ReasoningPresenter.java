package dev.switchboard.engine.pipeline;

import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.Reasoning;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.StreamEvent.Delta;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Applies the caller's {@code reasoning.exclude} and {@code reasoning.format} (spec 2.4) to an answer:
 * excluded traces are dropped (their tokens stay in the usage and the bill); the inline format turns a
 * trace into text wrapped in {@code <think>} tags ahead of the answer. For streams, one instance per
 * stream re-numbers blocks so the client still sees indexes 0, 1, 2... without gaps.
 */
public final class ReasoningPresenter {
    static final String OPEN = "<think>";
    static final String CLOSE = "</think>\n";

    private final Reasoning reasoning;
    private final Map<Integer, Integer> indexes = new HashMap<>();
    private final Map<Integer, Boolean> thinking = new HashMap<>();
    private int nextIndex;

    public ReasoningPresenter(Reasoning reasoning) {
        this.reasoning = reasoning;
    }

    private boolean passThrough() {
        return !reasoning.exclude() && reasoning.format() == Reasoning.Format.SEPARATE;
    }

    public ChatResponse present(ChatResponse response) {
        if (passThrough()) {
            return response;
        }
        List<ContentBlock> out = new ArrayList<>();
        for (ContentBlock b : response.content()) {
            boolean trace = b instanceof ContentBlock.Thinking || b instanceof ContentBlock.RedactedThinking;
            if (!trace) {
                out.add(b);
            } else if (!reasoning.exclude() && b instanceof ContentBlock.Thinking t && !t.text().isEmpty()) {
                out.add(ContentBlock.Text.of(OPEN + t.text() + CLOSE));
            }
        }
        return response.withContent(merged(out));
    }

    /** Inline traces and the answer text become one text block, as a plain-text client expects. */
    private static List<ContentBlock> merged(List<ContentBlock> blocks) {
        List<ContentBlock> out = new ArrayList<>();
        for (ContentBlock b : blocks) {
            if (b instanceof ContentBlock.Text t && !out.isEmpty() && out.getLast() instanceof ContentBlock.Text prev
                    && prev.text().endsWith(CLOSE)) {
                out.set(out.size() - 1, new ContentBlock.Text(prev.text() + t.text(), t.cache(), t.signature()));
            } else {
                out.add(b);
            }
        }
        return out;
    }

    /** Maps one upstream event to what the client should see (zero or more events). */
    public List<StreamEvent> present(StreamEvent event) {
        if (passThrough()) {
            return List.of(event);
        }
        return switch (event) {
            case StreamEvent.BlockStart s -> {
                boolean trace = s.block() instanceof ContentBlock.Thinking || s.block() instanceof ContentBlock.RedactedThinking;
                thinking.put(s.index(), trace);
                if (trace && reasoning.exclude()) {
                    yield List.of();
                }
                int idx = nextIndex++;
                indexes.put(s.index(), idx);
                if (trace) {
                    yield List.of(new StreamEvent.BlockStart(idx, ContentBlock.Text.of("")),
                            new StreamEvent.BlockDelta(idx, new Delta.TextDelta(OPEN)));
                }
                yield List.of(new StreamEvent.BlockStart(idx, s.block()));
            }
            case StreamEvent.BlockDelta d -> ofShownBlock(d.index(), (idx, trace) -> {
                if (!trace) {
                    return List.of(new StreamEvent.BlockDelta(idx, d.delta()));
                }
                return d.delta() instanceof Delta.ThinkingDelta t
                        ? List.of(new StreamEvent.BlockDelta(idx, new Delta.TextDelta(t.text()))) : List.of();
            });
            case StreamEvent.BlockStop s -> ofShownBlock(s.index(), (idx, trace) -> trace
                    ? List.of(new StreamEvent.BlockDelta(idx, new Delta.TextDelta(CLOSE)), new StreamEvent.BlockStop(idx))
                    : List.of(new StreamEvent.BlockStop(idx)));
            default -> List.of(event);
        };
    }

    /**
     * An event of the upstream block {@code upstreamIndex}: nothing when the block is not shown (an excluded
     * trace), else what {@code present} makes of it given the block's index for the client and whether it is
     * a reasoning trace (shown inline as text).
     */
    private List<StreamEvent> ofShownBlock(int upstreamIndex, BiFunction<Integer, Boolean, List<StreamEvent>> present) {
        Integer idx = indexes.get(upstreamIndex);
        return idx == null ? List.of() : present.apply(idx, thinking.getOrDefault(upstreamIndex, false));
    }
}
