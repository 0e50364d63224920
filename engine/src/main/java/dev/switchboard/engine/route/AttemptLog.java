package dev.switchboard.engine.route;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The attempts of one request, in order. Owned by the request's thread. */
public final class AttemptLog {
    private final List<AttemptRecord> attempts = new ArrayList<>();

    void add(AttemptRecord r) {
        attempts.add(r);
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
        return sb.toString();
    }
}
