package dev.switchboard.engine.pipeline;

import dev.switchboard.engine.route.Candidate;
import java.util.List;
import java.util.Objects;

/**
 * What admission is told about a request: who calls ({@link Caller}: user, key, plan), its id (unique; the
 * key of any hold and of the ledger entry), the endpoint, whether it is a generation or only a token
 * count, whether it streams, and its candidates in the order the failover loop will try them, each with
 * the request as that model gets it ({@code max_tokens} already capped), so the worst case of each can be
 * priced. The first candidate is the requested model.
 */
public record AdmissionRequest(Caller caller, String requestId, String endpoint, Purpose purpose, boolean streamed,
                               List<Candidate> candidates) {
    /** What the request asks the gateway to do. */
    public enum Purpose {
        /** A chat generation: billable for the model that answers. */
        GENERATE,
        /** {@code count_tokens}: an estimate, no upstream call, never billed. */
        COUNT_TOKENS
    }

    public AdmissionRequest {
        Objects.requireNonNull(caller, "caller");
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(purpose, "purpose");
        candidates = List.copyOf(candidates);
        if (candidates.isEmpty()) {
            throw new IllegalArgumentException("a request has at least its requested model as a candidate");
        }
    }

    /** The requested model's candidate. */
    public Candidate requested() {
        return candidates.getFirst();
    }
}
