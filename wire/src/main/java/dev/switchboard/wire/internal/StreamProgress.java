package dev.switchboard.wire.internal;

import dev.switchboard.model.GatewayError;
import dev.switchboard.model.StreamEvent;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

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
     * The canonical events of one server-sent event of an upstream whose events are JSON objects naming their
     * type: nothing once done; a failure when the data is not a JSON object ({@code upstream} names the upstream
     * in its message, e.g. {@code The Anthropic upstream}); otherwise what {@code read} makes of the event.
     */
    public List<StreamEvent> onEvent(Optional<String> eventName, String data, String upstream,
                                     Function<UpstreamEvent, List<StreamEvent>> read) {
        if (done) {
            return List.of();
        }
        return UpstreamEvent.read(eventName, data).map(read).orElseGet(() -> fail(UpstreamErrors.broken(upstream
                + " sent a stream event that is not a JSON object.")));
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
