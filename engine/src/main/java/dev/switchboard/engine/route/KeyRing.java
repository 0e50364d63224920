package dev.switchboard.engine.route;

import dev.switchboard.engine.catalog.ProviderConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Spreads requests over a provider's keys: each request starts at the next key in turn (round robin) and
 * moves on through the others only when a key is refused (401, 403, 429).
 */
public final class KeyRing {
    private final Map<String, AtomicInteger> next = new ConcurrentHashMap<>();

    /** The key slots to try for one attempt on {@code provider}, in order; one empty-key slot when it has none. */
    public List<Integer> order(ProviderConfig provider) {
        int n = provider.keys().size();
        if (n <= 1) {
            return List.of(0);
        }
        int start = Math.floorMod(next.computeIfAbsent(provider.id(), k -> new AtomicInteger()).getAndIncrement(), n);
        List<Integer> slots = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            slots.add((start + i) % n);
        }
        return slots;
    }

    public static String key(ProviderConfig provider, int slot) {
        return provider.keys().isEmpty() ? "" : provider.keys().get(slot);
    }
}
