package dev.switchboard.store;

import dev.switchboard.engine.limits.LimitHold;
import dev.switchboard.engine.limits.Limit;
import dev.switchboard.engine.limits.LimitCheck;
import dev.switchboard.engine.limits.LimitKind;
import dev.switchboard.engine.limits.LimitStore;
import dev.switchboard.engine.limits.LimitStoreException;
import dev.switchboard.engine.limits.Tally;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisFuture;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The limit counters in Redis, shared by every gateway instance that uses the same Redis and key prefix (the
 * rules of {@link LimitKind}, the same as {@code InMemoryLimitStore}). Each check-and-reserve is one server-side
 * script (one round trip, atomic, timed by Redis's own clock), so several instances enforce one limit exactly.
 * Settlements and releases are queued and ride along with the next check this instance sends (the same call runs
 * them first, in order), or are sent on their own by a sender thread when no check comes within a few
 * milliseconds: a request costs one call to Redis, and only its check waits for an answer.
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
    /**
     * One script for everything: the settle and reserve scripts as functions, and a driver that runs the
     * settlements queued so far and then, when asked, one check-and-reserve.
     */
    private static final String BATCH = "local function settle(KEYS, ARGV)\n" + script("redis/limits-settle.lua")
            + "\nend\nlocal function reserve(KEYS, ARGV)\n" + script("redis/limits-reserve.lua") + "\nend\n"
            + script("redis/limits-batch.lua");
    private static final Duration RECONNECT_EVERY = Duration.ofSeconds(1);
    /** The most settlements one call carries (Lua's unpack is bounded by its stack). */
    private static final int MOST_PER_CALL = 64;
    /** How long a settlement waits for a check to carry it before it is sent on its own. */
    private static final long SEND_ALONE_AFTER_NANOS = Duration.ofMillis(2).toNanos();

    private final RedisClient client;
    private final ClientResources resources;
    private final String prefix;
    private final Duration timeout;
    private final Clock clock;
    private final Supplier<Duration> offset;
    private final AtomicLong nextConnectAttempt = new AtomicLong();
    private volatile StatefulRedisConnection<String, String> connection;
    private volatile String batchSha;
    /** Settlements not yet sent, oldest first. */
    private final ConcurrentLinkedQueue<Queued> queued = new ConcurrentLinkedQueue<>();
    /** Held while taking queued settlements and sending them: what one instance sends reaches Redis in order. */
    private final ReentrantLock sending = new ReentrantLock();
    private final Thread sender;
    private final AtomicBoolean senderIdle = new AtomicBoolean();
    private volatile boolean closed;

    /** A settlement waiting to be sent: its script keys and arguments, and what completes when it was applied. */
    private record Queued(String[] keys, List<String> args, CompletableFuture<Void> done) {
    }

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
        this.sender = Thread.ofPlatform().name("limit-settlements").daemon().start(this::sendQueued);
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
        List<String> args = new ArrayList<>(7 + 2 * limits.size());
        args.add("reserve");
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
        List<Object> out = check(keys(limits), args);
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
    public CompletionStage<Void> settle(LimitHold hold, long actualTokens) {
        return close("settle", hold, actualTokens);
    }

    @Override
    public CompletionStage<Void> release(LimitHold hold) {
        return close("release", hold, 0);
    }

    /**
     * Queues the settlement: the next check this instance sends carries it (one call, no round trip of its own), or,
     * when no check comes within a few milliseconds, the sender thread sends it. Either way it is sent before any
     * check that starts after this returns, and nobody waits for its answer.
     */
    private CompletionStage<Void> close(String mode, LimitHold hold, long actualTokens) {
        List<String> args = new ArrayList<>(6 + hold.limits().size());
        args.add(mode);
        args.add(hold.requestId());
        args.add(Long.toString(actualTokens));
        args.add(Long.toString(hold.tokens()));
        args.add(Long.toString(hold.epochDay()));
        args.add(Integer.toString(hold.limits().size()));
        hold.limits().forEach(l -> args.add(code(l.kind())));
        CompletableFuture<Void> done = new CompletableFuture<>();
        queued.add(new Queued(keys(hold.limits()), args, done));
        if (senderIdle.get() && senderIdle.compareAndSet(true, false)) {
            LockSupport.unpark(sender);
        }
        return done;
    }

    /** The sender thread: sends what no check carried within {@link #SEND_ALONE_AFTER_NANOS}; idle when nothing waits. */
    private void sendQueued() {
        while (!closed) {
            if (queued.isEmpty()) {
                senderIdle.set(true);
                if (queued.isEmpty() && !closed) {
                    LockSupport.park(this);
                }
                senderIdle.set(false);
                continue;
            }
            LockSupport.parkNanos(this, SEND_ALONE_AFTER_NANOS);
            while (!queued.isEmpty()) {
                List<Queued> batch = new ArrayList<>();
                RedisFuture<List<Object>> sent;
                sending.lock();
                try {
                    take(batch);
                    if (batch.isEmpty()) {
                        break;
                    }
                    sent = send(batch, new String[0], List.of());
                } catch (LimitStoreException e) {
                    batch.forEach(q -> q.done().completeExceptionally(e));
                    continue;
                } finally {
                    sending.unlock();
                }
                sent.whenComplete((out, e) -> {
                    if (e != null && unwrap(e) instanceof RedisNoScriptException) {
                        batchSha = null; // Redis lost its scripts (and its counters): load it again next time
                    }
                    settled(batch, e);
                });
            }
        }
    }

    /** Moves up to {@link #MOST_PER_CALL} queued settlements into {@code batch}, oldest first. */
    private void take(List<Queued> batch) {
        Queued q;
        while (batch.size() < MOST_PER_CALL && (q = queued.poll()) != null) {
            batch.add(q);
        }
    }

    /** Completes the settlements of one call: applied, or failed with what failed the call. */
    private static void settled(List<Queued> batch, Throwable failure) {
        for (Queued q : batch) {
            if (failure == null) {
                q.done().complete(null);
            } else {
                Throwable cause = unwrap(failure);
                q.done().completeExceptionally(cause instanceof LimitStoreException ? cause
                        : new LimitStoreException("Redis settlement failed: " + reason(cause), cause));
            }
        }
    }

    private static Throwable unwrap(Throwable e) {
        return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
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

    /**
     * Runs one check-and-reserve, carrying the settlements queued so far, and waits for its answer. The script is
     * run by its digest and loaded first when Redis does not know it (yet, or any more).
     */
    private List<Object> check(String[] keys, List<String> args) {
        List<Queued> carried = new ArrayList<>();
        try {
            RedisFuture<List<Object>> sent;
            sending.lock();
            try {
                take(carried);
                sent = send(carried, keys, args);
            } finally {
                sending.unlock();
            }
            List<Object> out;
            try {
                out = LettuceFutures.awaitOrCancel(sent, timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (RedisNoScriptException e) {
                // Redis restarted (or flushed its scripts) since the script was loaded
                batchSha = null;
                sending.lock();
                try {
                    sent = send(carried, keys, args);
                } finally {
                    sending.unlock();
                }
                out = LettuceFutures.awaitOrCancel(sent, timeout.toMillis(), TimeUnit.MILLISECONDS);
            }
            settled(carried, null);
            return out;
        } catch (RedisException e) {
            LimitStoreException failed = new LimitStoreException("Redis check failed: " + reason(e), e);
            settled(carried, failed);
            throw failed;
        } catch (LimitStoreException e) {
            settled(carried, e);
            throw e;
        }
    }

    /** Sends one call of the batch script: {@code settlements}, then the check of {@code keys} and {@code args}, if any. */
    private RedisFuture<List<Object>> send(List<Queued> settlements, String[] checkKeys, List<String> checkArgs) {
        int keyCount = checkKeys.length;
        int argCount = 1 + checkArgs.size();
        for (Queued q : settlements) {
            keyCount += q.keys().length;
            argCount += 2 + q.args().size();
        }
        String[] keys = new String[keyCount];
        String[] args = new String[argCount];
        int k = 0;
        int a = 0;
        args[a++] = Integer.toString(settlements.size());
        for (Queued q : settlements) {
            System.arraycopy(q.keys(), 0, keys, k, q.keys().length);
            k += q.keys().length;
            args[a++] = Integer.toString(q.keys().length);
            args[a++] = Integer.toString(q.args().size());
            for (String v : q.args()) {
                args[a++] = v;
            }
        }
        System.arraycopy(checkKeys, 0, keys, k, checkKeys.length);
        for (String v : checkArgs) {
            args[a++] = v;
        }
        try {
            StatefulRedisConnection<String, String> c = connection();
            String sha = batchSha;
            if (sha == null) {
                sha = c.sync().scriptLoad(BATCH);
                batchSha = sha;
            }
            return c.async().evalsha(sha, ScriptOutputType.MULTI, keys, args);
        } catch (RedisException e) {
            throw new LimitStoreException("Redis " + (checkArgs.isEmpty() ? "settlement" : "check") + " failed: "
                    + reason(e), e);
        }
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
        closed = true;
        LockSupport.unpark(sender);
        StatefulRedisConnection<String, String> c = connection;
        if (c != null) {
            c.close();
        }
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        resources.shutdown();
    }
}
