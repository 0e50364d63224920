package dev.switchboard.wire.responses;

import java.util.List;
import java.util.Optional;

/**
 * Stop sequences for an upstream format that has none: the Responses API takes no {@code stop}, so the
 * gateway ends the answer's text where the first stop string begins, as a provider would (the stop string
 * itself is not part of the answer), and reports {@code STOP_SEQUENCE}. Applies to answer text only, not
 * to reasoning or tool-call arguments.
 *
 * <p>One instance per answer. For streams, {@link #feed} holds back the end of the text that could still
 * become a stop string, so nothing after a stop string ever reaches the client; {@link #flush} releases it
 * when the text ends without one. Not thread-safe.
 */
final class ResponsesStopSequences {
    /** Where a stop string begins in a text, and which one. */
    record Match(int at, String stop) {
    }

    /** What a streamed piece of text comes to: the text that may be shown now, and the stop, if one was hit. */
    record Fed(String text, Optional<String> stop) {
    }

    private final List<String> stops;
    private final int longest;
    private final StringBuilder held = new StringBuilder();
    private Optional<String> hit = Optional.empty();

    ResponsesStopSequences(List<String> stops) {
        this.stops = stops.stream().filter(s -> !s.isEmpty()).toList();
        this.longest = this.stops.stream().mapToInt(String::length).max().orElse(0);
    }

    boolean active() {
        return !stops.isEmpty();
    }

    /** The stop string that was hit, once one was. */
    Optional<String> hit() {
        return hit;
    }

    /** The first stop string in {@code text} (the longest when two begin at the same place). */
    Optional<Match> first(String text) {
        Optional<Match> best = Optional.empty();
        for (String stop : stops) {
            int at = text.indexOf(stop);
            if (at >= 0 && (best.isEmpty() || at < best.get().at()
                    || at == best.get().at() && stop.length() > best.get().stop().length())) {
                best = Optional.of(new Match(at, stop));
            }
        }
        return best;
    }

    /** Appends a streamed piece of text; once a stop was hit everything is swallowed. */
    Fed feed(String piece) {
        if (hit.isPresent()) {
            return new Fed("", Optional.empty());
        }
        if (!active()) {
            return new Fed(piece, Optional.empty());
        }
        held.append(piece);
        Optional<Match> match = first(held.toString());
        if (match.isPresent()) {
            String before = held.substring(0, match.get().at());
            held.setLength(0);
            hit = Optional.of(match.get().stop());
            return new Fed(before, hit);
        }
        // Keep what could be the beginning of a stop string; the rest is safe to show.
        int keep = Math.min(held.length(), longest - 1);
        String safe = held.substring(0, held.length() - keep);
        held.delete(0, held.length() - keep);
        return new Fed(safe, Optional.empty());
    }

    /** The held-back text at the end of a text block that met no stop string. */
    String flush() {
        String rest = held.toString();
        held.setLength(0);
        return rest;
    }
}
