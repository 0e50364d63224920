package dev.switchboard.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.engine.limits.Limit;
import dev.switchboard.engine.limits.LimitHold;
import dev.switchboard.engine.limits.LimitKind;
import dev.switchboard.engine.limits.LimitStoreException;
import dev.switchboard.engine.limits.LimitStore;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The limit rules on the real Redis of this machine ({@code -Dswitchboard.test.redis=true}; the URL from
 * {@code switchboard.test.redis.url}, default {@code redis://127.0.0.1:6379}), each test under a key prefix of its
 * own, its keys deleted after. Time is Redis's own clock plus an offset the test moves.
 */
class RedisLimitStoreTest extends LimitStoreContract {
    private static final URI REDIS = URI.create(System.getProperty("switchboard.test.redis.url", "redis://127.0.0.1:6379"));

    private final String prefix = "sbtest:" + UUID.randomUUID() + ":";
    private volatile Duration offset = Duration.ZERO;
    private Instant base;
    private RedisLimitStore store;

    @BeforeEach
    void connect() {
        Assumptions.assumeTrue(Boolean.getBoolean("switchboard.test.redis"), "Redis tests are off");
        // START (10:00 UTC of a fixed day) is the counters' time at the beginning of each test
        base = Instant.now();
        offset = Duration.between(base, START);
        store = new RedisLimitStore(REDIS, prefix, Duration.ofSeconds(2), Clock.systemUTC(), () -> offset);
    }

    @AfterEach
    void cleanUp() {
        if (store == null) {
            return;
        }
        store.close();
        RedisClient client = RedisClient.create(REDIS.toString());
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            List<String> keys = c.sync().keys(prefix + "*");
            if (!keys.isEmpty()) {
                c.sync().del(keys.toArray(String[]::new));
            }
        } finally {
            client.shutdown();
        }
    }

    @Override
    protected LimitStore store() {
        return store;
    }

    @Override
    protected void advance(Duration d) {
        offset = offset.plus(d);
    }

    /** Redis's clock is not ours to read exactly; the counters' time is close to ours plus the offset. */
    @Override
    protected Instant now() {
        return Instant.now().plus(offset);
    }

    @Override
    protected Duration tolerance() {
        return Duration.ofSeconds(2);
    }

    @Test
    void everyKeyLivesUnderThePrefixAndExpiresOnItsOwn() {
        store.reserve("r1", List.of(new Limit(LimitKind.REQUESTS_PER_MINUTE, "key:k:rpm", 5, Limit.KEY),
                new Limit(LimitKind.TOKENS_PER_MINUTE, "key:k:tpm", 500, Limit.KEY),
                new Limit(LimitKind.TOKENS_PER_DAY, "key:k:day", 500, Limit.KEY),
                new Limit(LimitKind.PARALLEL_REQUESTS, "key:k:parallel", 5, Limit.KEY)), 10);
        RedisClient client = RedisClient.create(REDIS.toString());
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            List<String> keys = c.sync().keys(prefix + "*");
            assertThat(keys).contains(prefix + "lim:key:k:rpm", prefix + "lim:key:k:tpm", prefix + "lim:key:k:tpm:tokens",
                    prefix + "lim:key:k:day", prefix + "lim:key:k:parallel");
            for (String k : keys) {
                assertThat(c.sync().pttl(k)).as(k).isPositive();
            }
        } finally {
            client.shutdown();
        }
    }

    @Test
    void aSettlementNoCheckCarriesIsSentOnItsOwnWithinMilliseconds() throws Exception {
        Limit parallel = new Limit(LimitKind.PARALLEL_REQUESTS, "key:s:parallel", 1, Limit.KEY);
        LimitHold hold = store.reserve("r1", List.of(parallel), 0).hold().orElseThrow();
        RedisClient client = RedisClient.create(REDIS.toString());
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            assertThat(c.sync().zcard(prefix + "lim:key:s:parallel")).isEqualTo(1);
            store.settle(hold, 0).toCompletableFuture().get(5, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(c.sync().zcard(prefix + "lim:key:s:parallel")).as("the slot was freed without a check").isZero();
        } finally {
            client.shutdown();
        }
    }

    @Test
    void aSettlementRidesAlongWithTheNextCheckAndIsAppliedBeforeIt() {
        Limit parallel = new Limit(LimitKind.PARALLEL_REQUESTS, "key:q:parallel", 1, Limit.KEY);
        for (int i = 0; i < 200; i++) {
            LimitHold hold = store.reserve("r" + i, List.of(parallel), 0).hold()
                    .orElseThrow(() -> new AssertionError("the previous settlement was not applied before this check"));
            store.settle(hold, 0);
        }
    }

    @Test
    void anUnreachableRedisFailsAtOnceAndTheStoreConnectsWhenItIsThere() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        try (RedisLimitStore nowhere = new RedisLimitStore(URI.create("redis://127.0.0.1:" + port), prefix,
                Duration.ofMillis(500), Clock.systemUTC(), () -> Duration.ZERO)) {
            assertThatThrownBy(() -> nowhere.reserve("r1", List.of(new Limit(LimitKind.REQUESTS_PER_MINUTE, "key:k:rpm", 5,
                    Limit.KEY)), 0)).isInstanceOf(LimitStoreException.class).hasMessageContaining("Redis");
        }
    }
}
