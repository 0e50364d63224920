package dev.switchboard.engine.responses;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** {@link ResponseStore} in memory, with the port's visibility and erasure rules, for engine tests. */
final class InMemoryResponseStore implements ResponseStore {
    private final Map<String, StoredResponse> rows = new LinkedHashMap<>();
    private final Set<String> hidden = new HashSet<>();

    @Override
    public synchronized void save(StoredResponse r) {
        if (rows.containsKey(r.id())) {
            throw new IllegalStateException("duplicate id " + r.id());
        }
        r.previousId().ifPresent(p -> {
            if (!rows.containsKey(p)) {
                throw new IllegalStateException("previous response " + p + " is not stored");
            }
        });
        rows.put(r.id(), r);
    }

    @Override
    public synchronized Optional<StoredResponse> find(String ownerId, String id) {
        StoredResponse r = rows.get(id);
        return r != null && r.ownerId().equals(ownerId) && !hidden.contains(id) ? Optional.of(r) : Optional.empty();
    }

    @Override
    public synchronized List<StoredResponse> chain(String ownerId, String id) {
        if (find(ownerId, id).isEmpty()) {
            return List.of();
        }
        List<StoredResponse> out = new ArrayList<>();
        Optional<String> next = Optional.of(id);
        while (next.isPresent()) {
            StoredResponse r = rows.get(next.get());
            out.addFirst(r);
            next = r.previousId();
        }
        return out;
    }

    @Override
    public synchronized boolean delete(String ownerId, String id, Instant at) {
        if (find(ownerId, id).isEmpty()) {
            return false;
        }
        hidden.add(id);
        Optional<String> current = Optional.of(id);
        while (current.isPresent() && hidden.contains(current.get())) {
            String c = current.get();
            if (rows.values().stream().anyMatch(r -> r.previousId().filter(c::equals).isPresent())) {
                break;
            }
            hidden.remove(c);
            current = rows.remove(c).previousId();
        }
        return true;
    }

    synchronized int size() {
        return rows.size();
    }
}
