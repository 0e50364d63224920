package dev.switchboard.engine.pipeline;

import dev.switchboard.engine.catalog.RouteTarget;
import dev.switchboard.engine.route.Candidate;
import dev.switchboard.model.Usage;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How an admitted request ended, as {@link Settlement} is told: who called, the request id and endpoint,
 * the model asked for, whether it streamed, how it ended, the candidate and route target that answered (a
 * fallback's, when one answered; empty when none did), the usage with its provenance (reported by the
 * upstream, or estimated by the gateway for a cut stream or a client that left), and the time it took.
 */
public record RequestOutcome(Caller caller, String requestId, String endpoint, AdmissionRequest.Purpose purpose,
                             String requestedModel, boolean streamed, Ending ending, Optional<Answered> answered,
                             Usage usage, Duration latency) {

    /** How the request ended. */
    public enum Ending {
        /** The whole answer reached the caller. */
        COMPLETED,
        /** No candidate answered (or the request failed before any upstream answered); nothing was delivered. */
        FAILED,
        /** A stream the upstream ended or broke after content had been delivered; usage is what was delivered. */
        CUT,
        /** The client left during the stream; the upstream was cancelled; usage is what was delivered. */
        CLIENT_GONE,
        /** A token count: nothing was generated. */
        COUNTED
    }

    /** The candidate that answered (its model, and the request as that model got it) and its provider. */
    public record Answered(Candidate candidate, RouteTarget target) {
        public Answered {
            Objects.requireNonNull(candidate, "candidate");
            Objects.requireNonNull(target, "target");
        }

        public String modelId() {
            return candidate.modelId();
        }
    }

    public RequestOutcome {
        Objects.requireNonNull(caller, "caller");
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(purpose, "purpose");
        Objects.requireNonNull(requestedModel, "requestedModel");
        Objects.requireNonNull(ending, "ending");
        Objects.requireNonNull(answered, "answered");
        Objects.requireNonNull(usage, "usage");
        Objects.requireNonNull(latency, "latency");
    }

    /**
     * The ids of the skills applied to the answering candidate's request, in stack order; empty when none did
     * or nothing answered. The usage record and {@code GET /v1/generation} name them.
     */
    public List<String> skills() {
        return answered.map(a -> a.candidate().skills()).orElse(List.of());
    }

    /** Whether the request is to be billed: a generation some model answered (fully or in part). */
    public boolean billable() {
        return purpose == AdmissionRequest.Purpose.GENERATE && answered.isPresent();
    }
}
