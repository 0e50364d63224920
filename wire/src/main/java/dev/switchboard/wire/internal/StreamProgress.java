package dev.switchboard.wire.internal;

import dev.switchboard.model.GatewayError;
import dev.switchboard.model.StreamEvent;
import java.util.List;

/**
 * How far an upstream stream parser has come: started (it has sent the canonical {@code MessageStart}) and
 * done (the upstream's end event came, or the stream failed; later input is ignored). A stream that breaks
 * off after it started ends with an in-band error saying so; one that never started ends with nothing, so
 * the engine may still try elsewhere.
 *
 * <p>Not part of the wire API: formats share it, callers outside {@code wire} must not.
 */
public final class StreamProgress {
    private boolean started;
    private boolean done;

    public boolean started() {
        return started;
    }

    public boolean done() {
        return done;
    }

    /** Marks the stream started: true the first time, when the caller is to send {@code MessageStart}. */
    public boolean start() {
        if (started) {
            return false;
        }
        started = true;
        return true;
    }

    /** The upstream's end event came: what follows is ignored. */
    public void finish() {
        done = true;
    }

    /** The stream fails with {@code error}: the one event that says so; what follows is ignored. */
    public List<StreamEvent> fail(GatewayError error) {
        done = true;
        return List.of(new StreamEvent.StreamError(error));
    }

    /**
     * The upstream closed the stream: nothing when it had finished or never started, otherwise the failure
     * {@code brokenOff} (which says what end event was missing).
     */
    public List<StreamEvent> end(String brokenOff) {
        if (done || !started) {
            return List.of();
        }
        return fail(UpstreamErrors.broken(brokenOff));
    }
}
