package dev.switchboard.engine.account;

import dev.switchboard.engine.account.Authentication.Authenticated;
import dev.switchboard.engine.account.Authentication.Reason;
import dev.switchboard.engine.account.Authentication.Rejected;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issues and checks API keys (docs/contracts.md §5). A key is {@code sk-sb-} followed by 43 base64url
 * characters encoding 32 random bytes; the store keeps only its SHA-256 hash and its first 12
 * characters. A successful lookup is reused for {@link #CACHE_TTL}, so a revocation takes effect at once on the
 * instance that revoked the key and within that time on every other instance. Concurrent lookups of one key
 * whose reuse ran out are made once (single flight): the others wait for that answer instead of each asking the
 * store, so a popular key expiring under load costs one pair of queries, not one per request in flight.
 * Logs name keys by id and prefix only, never by secret.
 */
public final class ApiKeys {

    /** What every API key starts with. */
    public static final String PREFIX = "sk-sb-";
    /** How many leading characters of a key are kept for display. */
    public static final int DISPLAY_PREFIX_LENGTH = 12;

    private static final Logger LOG = LoggerFactory.getLogger(ApiKeys.class);

    /**
     * How long a successful lookup is reused. Every request would otherwise cost two store queries; a
     * second of reuse removes them from the hot path. A revocation through this instance takes effect at
     * once ({@link #forget}); other instances see it within this time.
     */
    public static final Duration CACHE_TTL = Duration.ofSeconds(1);
    private static final int CACHE_MAX = 10_000;

    private final AccountStore store;
    private final Clock clock;
    private final RandomSecrets secrets;
    private final Map<KeyHash, Cached> cache = new ConcurrentHashMap<>();
    /** The store lookups running now, by key: the one other callers of the same key wait for. */
    private final Map<KeyHash, CompletableFuture<Authentication>> lookups = new ConcurrentHashMap<>();
    /** Callers waiting for another's lookup right now (tests see the single flight through it). */
    private final AtomicInteger joined = new AtomicInteger();
    /**
     * Counts {@link #forget} calls: a lookup that read the store before a revocation here must not keep its
     * answer for reuse after it (the revoking instance promises the very next request is refused).
     */
    private final AtomicLong forgets = new AtomicLong();

    private record Cached(Principal principal, Instant until) {
    }

    public ApiKeys(AccountStore store, Clock clock) {
        this(store, clock, new SecureRandom());
    }

    ApiKeys(AccountStore store, Clock clock, SecureRandom random) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.secrets = new RandomSecrets(Objects.requireNonNull(random, "random"));
    }

    /**
     * Creates a key for {@code userId}.
     *
     * @return the key with its secret, which is not retrievable afterwards
     * @throws AccountException NOT_FOUND when there is no such user; INVALID("expires_at") when the
     *         expiry is not in the future
     */
    public IssuedKey issue(String userId, NewKey spec) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        if (spec.expiresAt().isPresent() && !spec.expiresAt().get().isAfter(now)) {
            throw AccountException.invalid("expires_at", "expires_at: expected an instant in the future, got "
                    + spec.expiresAt().get());
        }
        String secret = secrets.next(PREFIX);
        ApiKey key = new ApiKey(Ids.next("key", now), userId, spec.name(), secret.substring(0, DISPLAY_PREFIX_LENGTH),
                spec.scope(), spec.limits(), spec.expiresAt().map(t -> t.truncatedTo(ChronoUnit.MILLIS)),
                Optional.empty(), now);
        store.createKey(key, KeyHash.of(secret));
        LOG.info("issued API key {} ({}) for user {}", key.id(), key.prefix(), userId);
        return new IssuedKey(key, secret);
    }

    /**
     * Checks a presented key. Malformed input is refused without a store lookup; otherwise the
     * presented secret is hashed, looked up, re-compared in constant time, and refused if revoked
     * or expired.
     */
    public Authentication authenticate(String presented) {
        if (!RandomSecrets.hasShape(presented, PREFIX)) {
            return new Rejected(Reason.MALFORMED);
        }
        KeyHash hash = KeyHash.of(presented);
        Instant now = clock.instant();
        Cached hit = cache.get(hash);
        if (hit != null && now.isBefore(hit.until())) {
            if (hit.principal().key().expiredAt(now)) {
                cache.remove(hash);
                return new Rejected(Reason.EXPIRED);
            }
            return new Authenticated(hit.principal());
        }
        long forgetsBefore = forgets.get();
        CompletableFuture<Authentication> mine = new CompletableFuture<>();
        CompletableFuture<Authentication> running = lookups.putIfAbsent(hash, mine);
        if (running != null) {
            return join(running);
        }
        try {
            Authentication answer = lookup(hash, now, forgetsBefore);
            mine.complete(answer);
            return answer;
        } catch (RuntimeException | Error e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            lookups.remove(hash, mine);
        }
    }

    private Authentication join(CompletableFuture<Authentication> running) {
        joined.incrementAndGet();
        try {
            return running.join();
        } catch (CompletionException e) {
            // the store failed for the caller that asked: it fails for everyone who waited on it, the same way
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        } finally {
            joined.decrementAndGet();
        }
    }

    /** How many callers are waiting for another caller's lookup of the same key right now. */
    int joinedLookups() {
        return joined.get();
    }

    /** Asks the store, and keeps a success for reuse unless a key was forgotten since {@code forgetsBefore}. */
    private Authentication lookup(KeyHash hash, Instant now, long forgetsBefore) {
        Optional<StoredKey> found = store.findKeyByHash(hash);
        // The re-comparison guards against a store whose lookup is looser than byte equality.
        if (found.isEmpty() || !found.get().hash().matches(hash)) {
            return new Rejected(Reason.UNKNOWN);
        }
        ApiKey key = found.get().key();
        if (key.revoked()) {
            LOG.debug("refused revoked API key {} ({})", key.id(), key.prefix());
            return new Rejected(Reason.REVOKED);
        }
        if (key.expiredAt(clock.instant())) {
            LOG.debug("refused expired API key {} ({})", key.id(), key.prefix());
            return new Rejected(Reason.EXPIRED);
        }
        Optional<User> user = store.findUser(key.userId());
        if (user.isEmpty()) {
            return new Rejected(Reason.UNKNOWN);
        }
        Principal principal = new Principal(user.get(), key);
        if (cache.size() >= CACHE_MAX) {
            cache.clear(); // crude but bounded: a burst of distinct keys costs one round of lookups
        }
        Cached kept = new Cached(principal, now.plus(CACHE_TTL));
        cache.put(hash, kept);
        // forget() counts before it sweeps the cache: either the sweep saw this entry, or this check sees the count
        if (forgets.get() != forgetsBefore) {
            cache.remove(hash, kept);
        }
        return new Authenticated(principal);
    }

    /** Drops any reused lookup of the key {@code keyId} (called when it is revoked here). */
    public void forget(String keyId) {
        forgets.incrementAndGet();
        // a lookup still running read the store before the revocation: later callers must not wait for its answer
        lookups.clear();
        cache.values().removeIf(c -> c.principal().key().id().equals(keyId));
    }
}
