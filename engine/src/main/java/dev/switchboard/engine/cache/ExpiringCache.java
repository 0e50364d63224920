package dev.switchboard.engine.cache;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Lookups of the hot path reused for a short time ({@code ttl}), so a chat request does not cost a store query
 * for what rarely changes (saved defaults, installed skills). A change made through this instance calls
 * {@link #forget} and takes effect at once; other instances see it within {@code ttl}. At most {@code max}
 * entries are kept: beyond that the cache is emptied (crude but bounded; a burst of distinct keys costs one
 * round of lookups).
 */
public final class ExpiringCache<K, V> {
    private record Entry<V>(V value, Instant until) {
    }

    private final Map<K, Entry<V>> entries = new ConcurrentHashMap<>();
    private final Clock clock;
    private final Duration ttl;
    private final int max;

    public ExpiringCache(Clock clock, Duration ttl, int max) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ttl = Objects.requireNonNull(ttl, "ttl");
        this.max = max;
    }

    /** The value for {@code key}: a reused one younger than {@code ttl}, else {@code load}'s (then kept). */
    public V get(K key, Function<K, V> load) {
        Instant now = clock.instant();
        Entry<V> hit = entries.get(key);
        if (hit != null && now.isBefore(hit.until())) {
            return hit.value();
        }
        V value = load.apply(key);
        if (entries.size() >= max) {
            entries.clear();
        }
        entries.put(key, new Entry<>(value, now.plus(ttl)));
        return value;
    }

    /** Drops the value kept for {@code key}, if any. */
    public void forget(K key) {
        entries.remove(key);
    }

    /** Drops every value kept. */
    public void forgetAll() {
        entries.clear();
    }
}
