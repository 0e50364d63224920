package dev.switchboard.model;

import dev.switchboard.model.ContentBlock.RedactedThinking;
import dev.switchboard.model.ContentBlock.Text;
import dev.switchboard.model.ContentBlock.Thinking;
import dev.switchboard.model.ContentBlock.ToolCall;
import dev.switchboard.model.StreamEvent.Delta;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Folds a stream of {@link StreamEvent}s into the {@link ChatResponse} it describes. Used wherever the
 * gateway needs the whole answer of a streamed exchange (billing, stored responses, serving a
 * non-streaming caller from a streaming upstream). One instance per stream; not thread-safe.
 */
public final class StreamAccumulator {
    private String id = "";
    private String model = "";
    private final TreeMap<Integer, BlockState> blocks = new TreeMap<>();
    private StopReason stopReason = StopReason.END_TURN;
    private Optional<String> stopSequence = Optional.empty();
    private Usage usage = Usage.EMPTY;
    private boolean started;
    private boolean stopped;
    private Optional<GatewayError> error = Optional.empty();
    private final List<TokenLogprob> logprobs = new ArrayList<>();
    private final List<TokenLogprob> refusalLogprobs = new ArrayList<>();
    private Optional<RefusalDetails> refusalDetails = Optional.empty();

    /** Applies one event. */
    public void accept(StreamEvent event) {
        switch (event) {
            case StreamEvent.MessageStart s -> {
                started = true;
                id = s.id();
                model = s.model();
                usage = usage.merge(s.usage());
            }
            case StreamEvent.BlockStart s -> blocks.put(s.index(), new BlockState(s.block()));
            case StreamEvent.BlockDelta d when d.delta() instanceof Delta.LogprobsDelta l ->
                    // on a refusal block they are the refusal's, on any other the answer text's
                    (blocks.get(d.index()) != null && blocks.get(d.index()).start instanceof ContentBlock.Refusal
                            ? refusalLogprobs : logprobs).addAll(l.tokens());
            case StreamEvent.BlockDelta d -> {
                BlockState b = blocks.get(d.index());
                if (b != null) {
                    b.apply(d.delta());
                }
            }
            case StreamEvent.BlockStop s -> { }
            case StreamEvent.MessageDelta d -> {
                stopReason = d.stopReason();
                stopSequence = d.stopSequence();
                usage = usage.merge(d.usage());
                refusalDetails = d.refusalDetails();
            }
            case StreamEvent.MessageStop s -> stopped = true;
            case StreamEvent.StreamError e -> error = Optional.of(e.error());
        }
    }

    public boolean started() {
        return started;
    }

    /** True once {@code MessageStop} arrived. */
    public boolean complete() {
        return stopped;
    }

    public Optional<GatewayError> error() {
        return error;
    }

    public Usage usage() {
        return usage;
    }

    /** The text generated so far (text blocks only); used to estimate output of cut streams. */
    public String textSoFar() {
        StringBuilder sb = new StringBuilder();
        for (BlockState b : blocks.values()) {
            sb.append(b.text);
            sb.append(b.arguments);
        }
        return sb.toString();
    }

    /** The answer as accumulated so far. */
    public ChatResponse response() {
        List<ContentBlock> content = new ArrayList<>();
        for (BlockState b : blocks.values()) {
            content.add(b.build());
        }
        return new ChatResponse(id, model, content, stopReason, stopSequence, usage, logprobs, refusalLogprobs, refusalDetails);
    }

    private static final class BlockState {
        private final ContentBlock start;
        private final StringBuilder text = new StringBuilder();
        private final StringBuilder arguments = new StringBuilder();
        private Optional<Signature> signature;

        BlockState(ContentBlock start) {
            this.start = start;
            switch (start) {
                case Text t -> {
                    text.append(t.text());
                    signature = t.signature();
                }
                case Thinking t -> {
                    text.append(t.text());
                    signature = t.signature();
                }
                case ContentBlock.Refusal r -> {
                    text.append(r.text());
                    signature = Optional.empty();
                }
                case ToolCall c -> {
                    arguments.append(c.argumentsJson());
                    signature = c.signature();
                }
                default -> signature = Optional.empty();
            }
        }

        void apply(Delta delta) {
            switch (delta) {
                case Delta.TextDelta t -> text.append(t.text());
                case Delta.ThinkingDelta t -> text.append(t.text());
                case Delta.ArgumentsDelta a -> arguments.append(a.partialJson());
                case Delta.SignatureDelta s -> signature = Optional.of(s.signature());
                case Delta.LogprobsDelta l -> { } // the accumulator keeps them for the whole answer
            }
        }

        ContentBlock build() {
            return switch (start) {
                case Text t -> new Text(text.toString(), t.cache(), signature);
                case Thinking t -> new Thinking(text.toString(), signature);
                case ContentBlock.Refusal r -> new ContentBlock.Refusal(text.toString());
                case ToolCall c -> new ToolCall(c.id(), c.name(), arguments.toString(), signature);
                case RedactedThinking r -> r;
                default -> start;
            };
        }
    }
}
