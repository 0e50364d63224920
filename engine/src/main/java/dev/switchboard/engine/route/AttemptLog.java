package dev.switchboard.engine.route;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The attempts of one request, in order. Owned by the request's thread. */
public final class AttemptLog {
    private final List<AttemptRecord> attempts = new ArrayList<>();
    /** "model via provider" of each target skipped because its provider was ejected, in order. */
    private final List<String> ejected = new ArrayList<>();

    void add(AttemptRecord r) {
        attempts.add(r);
    }

    void ejected(String model, String provider) {
        ejected.add(model + " via " + provider);
    }

    /** The targets skipped because their provider was ejected by the breaker (no upstream call was made). */
    public List<String> ejected() {
        return Collections.unmodifiableList(ejected);
    }

    public List<AttemptRecord> attempts() {
        return Collections.unmodifiableList(attempts);
    }

    /** A caller-safe summary such as {@code openai: 500; backup: connection reset}. */
    public String summary() {
        StringBuilder sb = new StringBuilder();
        for (AttemptRecord a : attempts) {
            if (!sb.isEmpty()) {
                sb.append("; ");
            }
            sb.append(a.model()).append(" via ").append(a.provider()).append(": ").append(a.outcome());
        }
        for (String e : ejected) {
            if (!sb.isEmpty()) {
                sb.append("; ");
            }
            sb.append(e).append(": skipped, failing repeatedly");
        }
        return sb.toString();
    }
}
