package dev.switchboard.engine.pipeline;

import dev.switchboard.engine.route.CandidateGate;
import java.util.Optional;

/**
 * What admission granted one request, handed back to the {@link Settlement} when the request is over.
 * Implementations carry what they hold (a reservation id and amount, reserved tokens). As a
 * {@link CandidateGate} it is asked before each candidate is tried: a fallback priced above what is held
 * may raise the hold first, or be refused (skipped) when it cannot be afforded. Used by one request's
 * thread only.
 */
public interface Admitted extends CandidateGate {
    /** Nothing held, every candidate may be tried. */
    Admitted NOTHING_HELD = candidate -> Optional.empty();
}
