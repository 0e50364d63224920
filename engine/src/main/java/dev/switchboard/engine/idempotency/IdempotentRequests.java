package dev.switchboard.engine.idempotency;

import dev.switchboard.model.GatewayError;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Requests that carry an {@code Idempotency-Key}: the first one claims the key (atomically, in the shared
 * store) and runs; every repeat with the same body waits for its answer and replays it, so 20 concurrent copies
 * make one upstream call and one charge. A repeat with another body is refused (409). Only complete answers are
 * kept, for {@link Policy#ttl()}; a request that ended otherwise (an error, a client that left mid-stream)
 * releases its claim, and the next repeat runs anew.
 *
 * <p>A claim is a lease that this instance renews while the request runs; when the instance dies (kill -9),
 * renewal stops and a repeat takes the claim over once the lease ran out.
 */
public final class IdempotentRequests implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(IdempotentRequests.class);
    /** The longest key accepted, as the payment APIs that made the header popular. */
    public static final int MAX_KEY_LENGTH = 255;
    private static final long FIRST_POLL_MILLIS = 10;
    private static final long LAST_POLL_MILLIS = 200;

    /**
     * @param ttl     how long a complete answer is replayed ({@code http.idempotency_ttl})
     * @param lease   how long a claim outlives its instance; renewed every third of it while the request runs
     * @param maxWait how long a repeat waits for the first request before it is told to retry later
     */
    public record Policy(Duration ttl, Duration lease, Duration maxWait) {
        public static final Policy DEFAULT = new Policy(Duration.ofHours(24), Duration.ofSeconds(30), Duration.ofMinutes(10));

        public Policy {
            if (ttl.isNegative() || ttl.isZero() || lease.toMillis() < 3 || maxWait.isNegative()) {
                throw new IllegalArgumentException("ttl and lease must be positive, maxWait not negative");
            }
        }
    }

    /** How a request with a key goes on. */
    public sealed interface Start {
        /** Run the request, then {@link Ticket#complete} or {@link Ticket#release} (closing releases). */
        record Run(Ticket ticket) implements Start {
        }

        /** Answer with this stored answer instead of running. */
        record Replay(StoredAnswer answer) implements Start {
        }
    }

    private final IdempotencyStore store;
    private final Clock clock;
    private final Policy policy;
    private final String instance = "inst_" + UUID.randomUUID();
    private final Set<String> running = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService renewer;

    public IdempotentRequests(IdempotencyStore store, Clock clock, Policy policy) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.renewer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("idempotency-leases").factory());
        long every = Math.max(1, policy.lease().toMillis() / 3);
        renewer.scheduleWithFixedDelay(this::renew, every, every, TimeUnit.MILLISECONDS);
        renewer.scheduleWithFixedDelay(this::prune, 1, 60, TimeUnit.SECONDS);
    }

    public Policy policy() {
        return policy;
    }

    /**
     * Whether {@code key} is acceptable as an idempotency key: 1 to {@value #MAX_KEY_LENGTH} printable ASCII
     * characters. The refusal names the header.
     */
    public static Optional<GatewayError> refusal(String key) {
        if (key.isEmpty() || key.length() > MAX_KEY_LENGTH || !key.chars().allMatch(c -> c >= 0x21 && c <= 0x7e)) {
            return Optional.of(GatewayError.invalid("Idempotency-Key", "The Idempotency-Key header must be 1 to "
                    + MAX_KEY_LENGTH + " printable ASCII characters without spaces (a UUID is a good choice)."));
        }
        return Optional.empty();
    }

    /**
     * Claims {@code key} of the API key {@code apiKeyId} for a request whose identity is {@code fingerprint},
     * or waits for the request that holds it and returns its answer.
     *
     * @throws dev.switchboard.model.GatewayException 409 when the key was used for another request, or the
     *         first request is still running after {@link Policy#maxWait()}
     */
    public Start start(String apiKeyId, String key, String fingerprint) {
        String scope = sha256(apiKeyId + "\n" + key);
        long deadline = System.nanoTime() + policy.maxWait().toNanos();
        long pause = FIRST_POLL_MILLIS;
        while (true) {
            Instant now = clock.instant();
            IdempotencyStore.Claim claim = store.claim(scope, fingerprint, instance, now, now.plus(policy.lease()),
                    now.plus(policy.ttl()));
            switch (claim) {
                case IdempotencyStore.Claim.Won w -> {
                    running.add(scope);
                    return new Start.Run(new Ticket(scope));
                }
                case IdempotencyStore.Claim.Done d -> {
                    return new Start.Replay(d.answer());
                }
                case IdempotencyStore.Claim.Mismatch m -> throw conflict(
                        "This Idempotency-Key was already used for a different request; send a new key for a new request.");
                case IdempotencyStore.Claim.Pending p -> {
                    if (System.nanoTime() - deadline > 0) {
                        throw conflict("A request with this Idempotency-Key is still in progress; retry it later.");
                    }
                    sleep(pause);
                    pause = Math.min(LAST_POLL_MILLIS, pause * 2);
                }
            }
        }
    }

    /** The identity of a request: SHA-256 of its parts, each length-prefixed so that no two splits collide. */
    public static String fingerprint(byte[]... parts) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            for (byte[] p : parts) {
                d.update(Integer.toString(p.length).getBytes(StandardCharsets.US_ASCII));
                d.update((byte) ':');
                d.update(p);
            }
            return HexFormat.of().formatHex(d.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    private static String sha256(String text) {
        return fingerprint(text.getBytes(StandardCharsets.UTF_8));
    }

    private static dev.switchboard.model.GatewayException conflict(String message) {
        return new GatewayError(409, "invalid_request_error", message, Optional.of("Idempotency-Key"), false).toException();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw GatewayError.upstreamUnavailable("Interrupted while waiting for the request with this Idempotency-Key.")
                    .toException();
        }
    }

    private void renew() {
        try {
            if (!running.isEmpty()) {
                store.renew(Set.copyOf(running), instance, clock.instant().plus(policy.lease()));
            }
        } catch (RuntimeException e) {
            LOG.warn("could not renew idempotency claims: {}", e.getMessage());
        }
    }

    private void prune() {
        try {
            store.prune(clock.instant());
        } catch (RuntimeException e) {
            LOG.warn("could not prune idempotency answers: {}", e.getMessage());
        }
    }

    @Override
    public void close() {
        renewer.shutdownNow();
    }

    /** A won claim: exactly one of {@link #complete} or {@link #release} takes effect; closing releases. */
    public final class Ticket implements AutoCloseable {
        private final String scope;
        private boolean settled;

        private Ticket(String scope) {
            this.scope = scope;
        }

        /** Stores the request's answer for the repeats. */
        public void complete(StoredAnswer answer) {
            if (settled) {
                return;
            }
            settled = true;
            try {
                store.complete(scope, instance, answer, clock.instant().plus(policy.ttl()));
            } finally {
                running.remove(scope);
            }
        }

        /** Gives the key up: the next repeat runs the request anew. */
        public void release() {
            if (settled) {
                return;
            }
            settled = true;
            try {
                store.release(scope, instance);
            } finally {
                running.remove(scope);
            }
        }

        @Override
        public void close() {
            release();
        }
    }
}
