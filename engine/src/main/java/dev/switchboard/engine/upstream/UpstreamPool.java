package dev.switchboard.engine.upstream;

import io.helidon.common.tls.Tls;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Kept-alive upstream connections, per target (scheme, host, port): at most {@link Settings#maxIdle()}
 * kept per target, each closed after {@link Settings#idleTimeout()} unused, and checked with one
 * non-blocking read before it is reused (a connection the provider closed is closed here too and a fresh
 * one is opened). The most recently used connection is reused first, so a burst's extra connections are
 * the ones that sit idle and expire. In-flight connections are not bounded here: a stream holds its
 * connection for as long as it lasts, and limits on concurrent requests belong to admission.
 *
 * <p>Nothing runs per connection. One {@link #sweep()} (called every few seconds by the owner) closes the
 * expired and the dead kept connections, so a socket the provider closed does not sit in CLOSE-WAIT.
 */
public final class UpstreamPool implements AutoCloseable {

    /** Pool limits. */
    public record Settings(int maxIdle, Duration idleTimeout) {
        public static final Settings DEFAULTS = new Settings(64, Duration.ofSeconds(30));

        public Settings {
            if (maxIdle < 0) {
                throw new IllegalArgumentException("upstream pool: max idle connections must be 0 or more, got " + maxIdle);
            }
            Objects.requireNonNull(idleTimeout, "idleTimeout");
            if (idleTimeout.isNegative()) {
                throw new IllegalArgumentException("upstream pool: idle timeout must not be negative, got " + idleTimeout);
            }
        }
    }

    /** Where connections go; its pool is where they come back to. */
    record Target(String scheme, String host, int port, UpstreamPool pool) {
        boolean tls() {
            return "https".equals(scheme);
        }

        @Override
        public String toString() {
            return scheme + "://" + host + ":" + port;
        }
    }

    private record Key(String scheme, String host, int port) {
    }

    private final Settings settings;
    private final Supplier<Tls> tls;
    private final LongSupplier nanoClock;
    private final Map<Key, Idle> idle = new ConcurrentHashMap<>();
    private final AtomicInteger open = new AtomicInteger();

    /** {@code tls} is asked for the TLS set-up of each new {@code https} connection, never for a plain one. */
    public UpstreamPool(Settings settings, Supplier<Tls> tls) {
        this(settings, tls, System::nanoTime);
    }

    UpstreamPool(Settings settings, Supplier<Tls> tls, LongSupplier nanoClock) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.tls = Objects.requireNonNull(tls, "tls");
        this.nanoClock = nanoClock;
    }

    /** The target of a request URI. */
    Target target(URI uri) {
        String scheme = uri.getScheme() == null ? "http" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("upstream URL must be http or https, got " + uri.getScheme());
        }
        int port = uri.getPort() > 0 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
        return new Target(scheme, uri.getHost(), port, this);
    }

    /** A kept connection that is still open, else a new one. */
    UpstreamConnection take(Target target, Duration connectTimeout) {
        Idle kept = idle.get(key(target));
        if (kept != null) {
            UpstreamConnection c;
            while ((c = kept.pollNewest()) != null) {
                if (!expired(c) && c.stillOpen()) {
                    c.taken();
                    return c;
                }
                c.closeResource();
            }
        }
        return fresh(target, connectTimeout);
    }

    /** A new connection, never a kept one (the retry after a kept connection turned out stale). */
    UpstreamConnection fresh(Target target, Duration connectTimeout) {
        UpstreamConnection c = UpstreamConnection.open(target, connectTimeout, tls);
        open.incrementAndGet();
        c.taken();
        return c;
    }

    /** A connection whose response was read to its end: kept, or closed when the target keeps enough. */
    void giveBack(UpstreamConnection c) {
        c.idleSince(nanoClock.getAsLong());
        if (!idle.computeIfAbsent(key(c.target()), k -> new Idle()).offer(c, settings.maxIdle())) {
            c.closeResource();
        }
    }

    /** Bookkeeping of a connection that closed itself. */
    void closed(UpstreamConnection c) {
        open.decrementAndGet();
    }

    /** Closes the kept connections that expired or that the provider closed. Cheap; call every few seconds. */
    public void sweep() {
        for (Idle kept : idle.values()) {
            for (UpstreamConnection c : kept.removeIf(c -> expired(c) || !c.stillOpen())) {
                c.closeResource();
            }
        }
    }

    /** Connections open now, kept or carrying a request. */
    public int openConnections() {
        return open.get();
    }

    /** Connections kept for reuse now, over all targets. */
    public int idleConnections() {
        int n = 0;
        for (Idle kept : idle.values()) {
            n += kept.size();
        }
        return n;
    }

    public Settings settings() {
        return settings;
    }

    private boolean expired(UpstreamConnection c) {
        return nanoClock.getAsLong() - c.idleSinceNanos() >= settings.idleTimeout().toNanos();
    }

    private static Key key(Target t) {
        return new Key(t.scheme(), t.host(), t.port());
    }

    @Override
    public void close() {
        closeIdle();
    }

    /** Closes every kept connection now (connections carrying requests are not touched). */
    public void closeIdle() {
        for (Idle kept : idle.values()) {
            for (UpstreamConnection c : kept.removeIf(c -> true)) {
                c.closeResource();
            }
        }
    }

    /** The kept connections of one target, newest first. A lock (not synchronized): callers are virtual threads. */
    private static final class Idle {
        private final ReentrantLock lock = new ReentrantLock();
        private final ArrayDeque<UpstreamConnection> connections = new ArrayDeque<>();

        UpstreamConnection pollNewest() {
            return locked(connections::pollFirst);
        }

        boolean offer(UpstreamConnection c, int max) {
            return locked(() -> connections.size() < max && connections.offerFirst(c));
        }

        List<UpstreamConnection> removeIf(java.util.function.Predicate<UpstreamConnection> drop) {
            return locked(() -> {
                List<UpstreamConnection> dropped = new ArrayList<>();
                for (Iterator<UpstreamConnection> it = connections.iterator(); it.hasNext(); ) {
                    UpstreamConnection c = it.next();
                    if (drop.test(c)) {
                        it.remove();
                        dropped.add(c);
                    }
                }
                return dropped;
            });
        }

        int size() {
            return locked(connections::size);
        }

        private <T> T locked(Supplier<T> work) {
            lock.lock();
            try {
                return work.get();
            } finally {
                lock.unlock();
            }
        }
    }
}
