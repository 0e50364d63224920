package dev.switchboard.store;

import dev.switchboard.engine.limits.LimitHold;
import dev.switchboard.engine.limits.Limit;
import dev.switchboard.engine.limits.LimitCheck;
import dev.switchboard.engine.limits.LimitKind;
import dev.switchboard.engine.limits.LimitStore;
import dev.switchboard.engine.limits.LimitStoreException;
import dev.switchboard.engine.limits.Tally;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The limit counters in Redis, shared by every gateway instance that uses the same Redis and key prefix (the
 * rules of {@link LimitKind}, the same as {@code InMemoryLimitStore}). Each check-and-reserve is one server-side
 * script (one round trip, atomic, timed by Redis's own clock), and so is each settlement or release, so several
 * instances enforce one limit exactly.
 *
 * <p>Keys: {@code <prefix>lim:<counter>} (a sorted set of request ids by time for request and token windows and
 * parallel sets; a hash of UTC day to tokens for daily caps) and {@code <prefix>lim:<counter>:tokens} (the tokens
 * of each request in a token window, and their sum); every key expires on its own when its counter goes quiet.
 * One Redis (or a primary with replicas) is assumed: the script touches several keys, which Redis Cluster would
 * only allow in one hash slot.
 *
 * <p>When Redis cannot be reached (refused, reset, slower than the timeout) every operation throws
 * {@link LimitStoreException} at once rather than queueing; the connection is retried in the background by the
 * client, and a fresh connection is attempted at most once per second while there is none.
 */
public final class RedisLimitStore implements LimitStore, AutoCloseable {
    private static final String RESERVE = script("redis/limits-reserve.lua");
    private static final String SETTLE = script("redis/limits-settle.lua");
    private static final Duration RECONNECT_EVERY = Duration.ofSeconds(1);

    private final RedisClient client;
    private final ClientResources resources;
    private final String prefix;
    private final Duration timeout;
    private final Clock clock;
    private final Supplier<Duration> offset;
    private final AtomicLong nextConnectAttempt = new AtomicLong();
    private volatile StatefulRedisConnection<String, String> connection;
    private volatile String reserveSha;
    private volatile String settleSha;

    /**
     * @param uri     {@code redis://[:password@]host:port[/db]} or {@code rediss://} for TLS
     * @param prefix  put before every key, so several deployments (or tests) can share one Redis
     * @param timeout the longest one operation may take before it counts as failed
     * @param clock   paces reconnection attempts
     * @param offset  how far the counters' time is ahead of Redis's clock: zero, except in tests that skip part of
     *                a window
     */
    public RedisLimitStore(URI uri, String prefix, Duration timeout, Clock clock, Supplier<Duration> offset) {
        this.prefix = prefix;
        this.timeout = timeout;
        this.clock = clock;
        this.offset = offset;
        // a reconnection at least every second: limits count again soon after Redis is back
        this.resources = DefaultClientResources.builder().ioThreadPoolSize(2).computationThreadPoolSize(2)
                .reconnectDelay(Delay.exponential(Duration.ofMillis(50), RECONNECT_EVERY, 2, TimeUnit.MILLISECONDS)).build();
        RedisURI redisUri = RedisURI.create(uri);
        redisUri.setTimeout(timeout);
        this.client = RedisClient.create(resources, redisUri);
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                // fail at once while disconnected: a request must not wait for Redis to come back
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(timeout))
                .build());
        try {
            connection();
        } catch (LimitStoreException e) {
            // not fatal: the gateway serves under its on_store_failure policy until Redis answers
        }
    }

    private static String script(String resource) {
        try (InputStream in = RedisLimitStore.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private StatefulRedisConnection<String, String> connection() {
        StatefulRedisConnection<String, String> c = connection;
        if (c != null) {
            return c;
        }
        synchronized (this) {
            if (connection != null) {
                return connection;
            }
            long now = clock.millis();
            if (now < nextConnectAttempt.get()) {
                throw new LimitStoreException("Redis is not connected (next attempt within a second)", null);
            }
            nextConnectAttempt.set(now + RECONNECT_EVERY.toMillis());
            try {
                StatefulRedisConnection<String, String> fresh = client.connect();
                fresh.setTimeout(timeout);
                connection = fresh;
                return fresh;
            } catch (RedisException e) {
                throw new LimitStoreException("cannot connect to Redis: " + reason(e), e);
            }
        }
    }

    @Override
    public LimitCheck reserve(String requestId, List<Limit> limits, long tokens) {
        List<String> args = new ArrayList<>(5 + 2 * limits.size());
        args.add(requestId);
        args.add(Long.toString(tokens));
        args.add(Long.toString(LimitKind.WINDOW.toMillis()));
        args.add(Long.toString(LimitKind.PARALLEL_LEASE.toMillis()));
        args.add(Long.toString(offset.get().toMillis()));
        args.add(Integer.toString(limits.size()));
        for (Limit l : limits) {
            args.add(code(l.kind()));
            args.add(Long.toString(l.ceiling()));
        }
        List<Object> out = run(true, keys(limits), args);
        boolean granted = number(out, 0) == 1;
        long day = number(out, 2);
        List<Tally> tallies = new ArrayList<>(limits.size());
        for (int i = 0; i < limits.size(); i++) {
            long remaining = number(out, 3 + 3 * i);
            long reset = number(out, 4 + 3 * i);
            long fits = number(out, 5 + 3 * i);
            Optional<Instant> refusedUntil = fits == -1 ? Optional.empty()
                    : Optional.of(fits == -2 ? Instant.MAX : Instant.ofEpochMilli(fits));
            tallies.add(new Tally(limits.get(i), remaining, Instant.ofEpochMilli(reset), refusedUntil));
        }
        return new LimitCheck(tallies, granted ? Optional.of(new LimitHold(requestId, limits, tokens, day)) : Optional.empty());
    }

    @Override
    public void settle(LimitHold hold, long actualTokens) {
        close("settle", hold, actualTokens);
    }

    @Override
    public void release(LimitHold hold) {
        close("release", hold, 0);
    }

    private void close(String mode, LimitHold hold, long actualTokens) {
        List<String> args = new ArrayList<>(6 + hold.limits().size());
        args.add(mode);
        args.add(hold.requestId());
        args.add(Long.toString(actualTokens));
        args.add(Long.toString(hold.tokens()));
        args.add(Long.toString(hold.epochDay()));
        args.add(Integer.toString(hold.limits().size()));
        hold.limits().forEach(l -> args.add(code(l.kind())));
        run(false, keys(hold.limits()), args);
    }

    private String[] keys(List<Limit> limits) {
        String[] keys = new String[2 * limits.size()];
        for (int i = 0; i < limits.size(); i++) {
            String main = prefix + "lim:" + limits.get(i).counter();
            keys[2 * i] = main;
            keys[2 * i + 1] = main + ":tokens";
        }
        return keys;
    }

    private static String code(LimitKind kind) {
        return switch (kind) {
            case REQUESTS_PER_MINUTE -> "r";
            case TOKENS_PER_MINUTE -> "t";
            case TOKENS_PER_DAY -> "d";
            case PARALLEL_REQUESTS -> "p";
        };
    }

    /**
     * Whether Redis answers {@code PING} right now (for {@code /ready}). Never throws; takes at most the store's
     * timeout, and fails at once while there is no connection (a new one is tried at most once per second).
     */
    public boolean ping() {
        try {
            return "PONG".equalsIgnoreCase(connection().sync().ping());
        } catch (RedisException | LimitStoreException e) {
            return false;
        }
    }

    /** Runs the reserve or the settle script by its digest, loading it first when Redis does not know it (yet, or any more). */
    private List<Object> run(boolean reserve, String[] keys, List<String> args) {
        String[] values = args.toArray(String[]::new);
        try {
            StatefulRedisConnection<String, String> c = connection();
            String sha = reserve ? reserveSha : settleSha;
            if (sha == null) {
                sha = load(c, reserve);
            }
            try {
                return c.sync().evalsha(sha, ScriptOutputType.MULTI, keys, values);
            } catch (RedisNoScriptException e) {
                // Redis restarted (or flushed its scripts) since the script was loaded
                return c.sync().evalsha(load(c, reserve), ScriptOutputType.MULTI, keys, values);
            }
        } catch (RedisException e) {
            throw new LimitStoreException("Redis " + (reserve ? "check" : "settlement") + " failed: " + reason(e), e);
        }
    }

    private String load(StatefulRedisConnection<String, String> c, boolean reserve) {
        String sha = c.sync().scriptLoad(reserve ? RESERVE : SETTLE);
        if (reserve) {
            reserveSha = sha;
        } else {
            settleSha = sha;
        }
        return sha;
    }

    private static long number(List<Object> out, int index) {
        return ((Number) out.get(index)).longValue();
    }

    private static String reason(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return String.valueOf(root.getMessage());
    }

    @Override
    public void close() {
        StatefulRedisConnection<String, String> c = connection;
        if (c != null) {
            c.close();
        }
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        resources.shutdown();
    }
}
