package dev.switchboard.wire.internal;

import dev.switchboard.model.ContentBlock;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.RefusalDetails;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.model.Usage;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * What every client stream writer shares, whatever its format: one instance per stream, fed the
 * canonical events in order; the stream opens with the answer's start, an empty one when another event
 * comes first (a client gets a well-formed stream rather than a cut one; a later start is ignored);
 * nothing is written once the stream is finished (after its last event or an error); the stop reason
 * and the usage (start and every delta, merged) are gathered as they arrive. A format says what each
 * kind of event looks like on its wire.
 *
 * <p>Not part of the wire API: formats share it, callers outside {@code wire} must not.
 */
public abstract class EventStreamWriter {
    /** Room for a typical frame (a delta is 150-400 characters), so that building one does not grow the buffer. */
    private static final int FRAME_CAPACITY = 512;
    /** A buffer grown past this by a large frame (a long tool call, an error) is dropped after it. */
    private static final int MAX_KEPT_CAPACITY = 2 * 1024;
    private static final StreamEvent.MessageStart EMPTY_START = new StreamEvent.MessageStart("", "", Usage.EMPTY);

    /** The frame being built: one buffer per stream, reused for every event (a stream writer is not shared). */
    private StringBuilder frame = new StringBuilder(FRAME_CAPACITY);
    private boolean started;
    private boolean finished;
    private StopReason stopReason = StopReason.END_TURN;
    private Usage usage = Usage.EMPTY;
    private Optional<RefusalDetails> refusalDetails = Optional.empty();

    /** The text to send for {@code event}; empty when it shows nothing (yet) in this format, or the stream is finished. */
    public final String write(StreamEvent event) {
        if (finished) {
            return "";
        }
        StringBuilder out = frame;
        out.setLength(0);
        if (!started) {
            started = true;
            StreamEvent.MessageStart start = event instanceof StreamEvent.MessageStart s ? s : EMPTY_START;
            usage = usage.merge(start.usage());
            start(out, start);
        }
        switch (event) {
            case StreamEvent.MessageStart s -> { }
            case StreamEvent.BlockStart s -> blockStart(out, s.index(), s.block());
            case StreamEvent.BlockDelta d -> blockDelta(out, d.index(), d.delta());
            case StreamEvent.BlockStop s -> blockStop(out, s.index());
            case StreamEvent.MessageDelta d -> {
                stopReason = d.stopReason();
                usage = usage.merge(d.usage());
                refusalDetails = d.refusalDetails();
                messageDelta(out, d.stopReason(), d.stopSequence());
            }
            case StreamEvent.MessageStop s -> messageStop(out);
            case StreamEvent.StreamError e -> error(out, e.error());
        }
        String text = out.toString();
        if (out.capacity() > MAX_KEPT_CAPACITY) {
            frame = new StringBuilder(FRAME_CAPACITY); // the room a large frame took is not kept for the stream's life
        }
        return text;
    }

    /** {@link #write} as UTF-8 bytes, the shape a sink takes. */
    public final byte[] writeBytes(StreamEvent event) {
        return write(event).getBytes(StandardCharsets.UTF_8);
    }

    /** True once the stream was ended (its last event or an error written); later events produce nothing. */
    public final boolean finished() {
        return finished;
    }

    /** Marks the stream ended: called by the format when it has written its last frame. */
    protected final void markFinished() {
        finished = true;
    }

    /** The refusal details of the last {@code MessageDelta}; empty until one came. */
    protected final Optional<RefusalDetails> refusalDetails() {
        return refusalDetails;
    }

    /** The stop reason of the last {@code MessageDelta}; {@code END_TURN} until one came. */
    protected final StopReason stopReason() {
        return stopReason;
    }

    /** The usage reported so far (the start's, merged with every delta's). */
    protected final Usage usage() {
        return usage;
    }

    /** Opens the stream ({@link #usage()} already holds the start's usage). */
    protected abstract void start(StringBuilder out, StreamEvent.MessageStart start);

    protected abstract void blockStart(StringBuilder out, int index, ContentBlock block);

    protected abstract void blockDelta(StringBuilder out, int index, StreamEvent.Delta delta);

    /** A block ended; nothing to show by default. */
    protected void blockStop(StringBuilder out, int index) {
    }

    /** The answer's stop reason and usage arrived ({@link #stopReason()} and {@link #usage()} hold them); nothing to show by default. */
    protected void messageDelta(StringBuilder out, StopReason reason, Optional<String> stopSequence) {
    }

    /** The answer is complete: the format's last frames, then {@link #markFinished()}. */
    protected abstract void messageStop(StringBuilder out);

    /** The answer failed: the format's in-band error, then {@link #markFinished()}. */
    protected abstract void error(StringBuilder out, GatewayError error);
}
