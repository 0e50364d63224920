package dev.switchboard.engine.route;

import java.util.Optional;

/**
 * Asked by the failover loop before the first attempt on each candidate, in order: whether that candidate
 * may be tried at all. Admission uses it to raise what it holds before a pricier fallback is tried, or to
 * skip a fallback the caller cannot afford. A refused candidate is skipped (and logged), never an error
 * by itself.
 */
@FunctionalInterface
public interface CandidateGate {
    /** Every candidate may be tried. */
    CandidateGate OPEN = candidate -> Optional.empty();

    /** Empty to try {@code candidate}; otherwise why it is skipped, in words for the log. */
    Optional<String> refusal(Candidate candidate);
}
