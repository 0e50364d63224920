package dev.switchboard.testkit.soak;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;

/**
 * Decides whether what a client saw is an outcome the contract allows, given the attempts the gateway made and
 * the fault each was scheduled. It does not predict which targets the gateway tries (the breaker may skip some),
 * only what must hold whatever it tried:
 *
 * <ul>
 *   <li>targets are tried in the pool's order, each at most once (one key each), so upstream calls per request
 *       never exceed the targets;
 *   <li>every attempt but the last failed before its first content; for a streamed caller, an attempt that
 *       delivered content is the last one (no retry after the first byte);
 *   <li>a 200 comes from the last attempt, which succeeded, or, for a streamed caller, which failed after content:
 *       then the stream carries an in-band error and ends properly; every chunk the caller got is stamped by that
 *       one attempt, numbered from 0 without a gap (no mixing, nothing lost, nothing repeated);
 *   <li>an error comes only when every attempt failed, in the caller's envelope: 429 only when every attempt was
 *       rate limited, else 503;
 *   <li>a client that left mid-stream had its upstream connection closed within a second.
 * </ul>
 *
 * Requests that overlapped a {@code kill -9} may have broken off; nothing else may.
 */
final class Oracle {
    static final Duration ABORT_CLOSE_LIMIT = Duration.ofSeconds(1);
    private final List<String> targetOrder;

    /** {@code targetOrder}: the providers of the request's candidates, in the order failover visits them. */
    Oracle(List<String> targetOrder) {
        this.targetOrder = List.copyOf(targetOrder);
    }

    /** The violations of one request; empty when its outcome is allowed. */
    List<String> check(Observation o, List<UpstreamAttempt> attempts, boolean overlappedKill) {
        List<String> v = new ArrayList<>();
        if (overlappedKill) {
            return v; // whatever a kill cut is allowed; money and holds are checked at the end
        }
        // Bound: each target at most once. Order: on a loaded machine an attempt the gateway gave up on before it
        // even arrived (its first-byte deadline passed in transit) reaches the fake after the next one, so the
        // order is checked among the attempts that delivered something only.
        if (attempts.stream().map(a -> a.provider).distinct().count() != attempts.size()) {
            v.add("a target tried twice: " + attempts);
        }
        int last = -1;
        for (UpstreamAttempt a : attempts) {
            if (a.chunksSent == 0 && !a.completed) {
                continue;
            }
            int at = targetOrder.indexOf(a.provider);
            if (at <= last) {
                v.add("target " + a.provider + " tried out of order: " + attempts);
                break;
            }
            last = at;
        }
        // An earlier attempt may have been scheduled to answer and still have failed for the gateway (a deadline
        // passed on a loaded machine): what the caller received is the ground truth. Content from one attempt only,
        // the last (no retry after the first byte, no mixing), is checked on the stamps below.
        // the attempt that answered: the one whose stamps the caller got, else the last one that delivered anything
        // (later ones were given up in transit), else the last one
        Optional<String> stamped = stamped(o);
        Optional<UpstreamAttempt> lastAttempt = answering(o, attempts);
        if (stamped.isPresent() && lastAttempt.filter(a -> a.id.equals(stamped.get())).isEmpty()) {
            v.add("content from " + stamped.get() + ", an attempt the upstreams never made for this request: " + attempts);
        }
        switch (o.kind()) {
            case BROKEN -> v.add("the answer broke off without a kill: " + o.problem());
            case REFUSED -> {
                if (!o.problem().isEmpty()) {
                    v.add("a " + o.status() + " not in the format's envelope: " + o.problem());
                }
                if (lastAttempt.isPresent() && lastAttempt.get().completed && lastAttempt.get().fault == Fault.NONE
                        && lastAttempt.get().closedNanos == 0 && !o.streamed()) {
                    // the gateway may still have given up on it (idle deadline); only a flagrant case is reported
                    v.add("an error (" + o.status() + ") although the last attempt answered in full: " + attempts);
                }
                boolean allRateLimited = !attempts.isEmpty() && attempts.stream().allMatch(a -> a.fault == Fault.RATE_LIMITED);
                if (o.status() != 503 && !(o.status() == 429 && allRateLimited)) {
                    v.add("status " + o.status() + " after " + attempts + " (expected 503, or 429 when all were rate limited)");
                }
            }
            case ANSWERED -> lastAttempt.ifPresentOrElse(a -> answered(o, a, attempts, v),
                    () -> v.add("an answer without any upstream attempt"));
            case ABORTED -> lastAttempt.ifPresentOrElse(a -> aborted(o, a, v),
                    () -> v.add("a stream without any upstream attempt"));
        }
        return v;
    }

    /** A whole or streamed answer from {@code a}, the attempt that answered. */
    private static void answered(Observation o, UpstreamAttempt a, List<UpstreamAttempt> attempts, List<String> v) {
        checkStamps(o, a, v);
        if (!o.problem().isEmpty()) {
            v.add(o.problem());
        }
        if (o.streamed() && !o.properEnd()) {
            v.add("a stream that ended silently");
        }
        if (a.completed) {
            if (o.inBandError() && a.closedNanos == 0) {
                v.add("an in-band error on a complete answer from " + a);
            }
        } else if (o.streamed()) {
            if (!o.inBandError()) {
                v.add("a stream cut upstream (" + a + ") without an in-band error");
            }
        } else {
            v.add("a whole answer although the last attempt did not complete: " + attempts);
        }
    }

    /** A stream the client left early, {@code a} the attempt that was answering it. */
    private static void aborted(Observation o, UpstreamAttempt a, List<String> v) {
        checkStamps(o, a, v);
        if (!a.completed && !a.endedByFake) {
            long closed = a.closedNanos;
            if (closed == 0) {
                v.add("the upstream connection of " + a.id + " stayed open after the client left");
            } else if (closed - o.abortNanos() > ABORT_CLOSE_LIMIT.toNanos()) {
                v.add("the upstream connection of " + a.id + " closed " + Duration.ofNanos(closed - o.abortNanos()).toMillis()
                        + " ms after the client left");
            }
        }
    }

    private static Optional<String> stamped(Observation o) {
        Matcher first = SoakUpstreams.STAMP.matcher(o.text());
        return first.find() ? Optional.of(first.group(1)) : Optional.empty();
    }

    /**
     * The attempt that answered: the one whose stamps the caller got, else the last one that delivered anything
     * (later ones were given up in transit), else the last one.
     */
    static Optional<UpstreamAttempt> answering(Observation o, List<UpstreamAttempt> attempts) {
        return stamped(o).flatMap(id -> attempts.stream().filter(a -> a.id.equals(id)).findFirst())
                .or(() -> attempts.reversed().stream().filter(a -> a.chunksSent > 0 || a.completed).findFirst())
                .or(() -> attempts.isEmpty() ? Optional.empty() : Optional.of(attempts.getLast()));
    }

    /** Every stamp of the answer names the last attempt, numbered 0, 1, 2... without a gap. */
    private static void checkStamps(Observation o, UpstreamAttempt a, List<String> v) {
        Matcher m = SoakUpstreams.STAMP.matcher(o.text());
        int expected = 0;
        while (m.find()) {
            if (!m.group(1).equals(a.id)) {
                v.add("chunk " + m.group() + " is not from the answering attempt " + a.id + " (two attempts mixed)");
                return;
            }
            if (Integer.parseInt(m.group(2)) != expected) {
                v.add("chunk " + m.group() + " where chunk " + expected + " was due (lost or repeated)");
                return;
            }
            expected++;
        }
        if (o.kind() == Observation.Kind.ANSWERED && a.completed && !o.inBandError() && expected != a.chunksSent) {
            v.add(expected + " of " + a.chunksSent + " chunks of a complete answer arrived");
        }
        if (o.kind() == Observation.Kind.ANSWERED && o.outputTokens() >= 0 && a.completed && o.outputTokens() != a.chunksSent) {
            v.add("usage says " + o.outputTokens() + " output tokens, the upstream reported " + a.chunksSent);
        }
    }
}
