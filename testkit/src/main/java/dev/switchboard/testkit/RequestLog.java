package dev.switchboard.testkit;

import java.util.ArrayList;
import java.util.List;

/** Every request received, in arrival order; snapshots are immutable. */
final class RequestLog {

    private final List<RecordedRequest> requests = new ArrayList<>();

    synchronized void add(RecordedRequest request) {
        requests.add(request);
    }

    synchronized List<RecordedRequest> snapshot() {
        return List.copyOf(requests);
    }

    synchronized void clear() {
        requests.clear();
    }
}
