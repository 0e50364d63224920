package dev.switchboard.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.engine.idempotency.IdempotencyStore;
import dev.switchboard.engine.idempotency.IdempotencyStore.Claim;
import dev.switchboard.engine.idempotency.StoredAnswer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The idempotency store contracts against a real database: one winner per key, however many ask at once. */
abstract class IdempotencyStoreContract extends StoreContract {
    private static final Instant LEASE = T0.plusSeconds(30);
    private static final Instant EXPIRES = T0.plus(Duration.ofHours(24));
    private static final StoredAnswer ANSWER = new StoredAnswer("req_1", 200, "text/event-stream", true,
            List.of(new StoredAnswer.Header("x-switchboard-note", "a\"b")), "data: é\n\n".getBytes(StandardCharsets.UTF_8));

    private IdempotencyStore store;

    @BeforeEach
    final void openStore() {
        store = new JdbcIdempotencyStore(database);
    }

    @Test
    void oneOfTwentyConcurrentClaimsWinsAcrossTwoHandles() throws Exception {
        IdempotencyStore other = new JdbcIdempotencyStore(open());
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Claim>> claims = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(20)) {
            for (int i = 0; i < 20; i++) {
                IdempotencyStore s = i % 2 == 0 ? store : other;
                String owner = "inst_" + (i % 2);
                claims.add(pool.submit(() -> {
                    go.await();
                    return s.claim("scope", "fp", owner, T0, LEASE, EXPIRES);
                }));
            }
            go.countDown();
            int won = 0;
            for (Future<Claim> f : claims) {
                Claim c = f.get();
                assertThat(c).isInstanceOfAny(Claim.Won.class, Claim.Pending.class);
                won += c instanceof Claim.Won ? 1 : 0;
            }
            assertThat(won).isEqualTo(1);
        }
    }

    @Test
    void aCompletedAnswerIsReplayedByteForByteAndAnotherBodyIsAMismatch() {
        assertThat(store.claim("s", "fp", "a", T0, LEASE, EXPIRES)).isInstanceOf(Claim.Won.class);
        store.complete("s", "a", ANSWER, EXPIRES);
        Claim again = store.claim("s", "fp", "b", T0.plusSeconds(1), LEASE, EXPIRES);
        assertThat(again).isInstanceOf(Claim.Done.class);
        StoredAnswer replayed = ((Claim.Done) again).answer();
        assertThat(replayed.body()).isEqualTo(ANSWER.body());
        assertThat(replayed.headers()).isEqualTo(ANSWER.headers());
        assertThat(replayed).extracting(StoredAnswer::requestId, StoredAnswer::status, StoredAnswer::contentType,
                StoredAnswer::streamed).containsExactly("req_1", 200, "text/event-stream", true);
        assertThat(store.claim("s", "other", "b", T0.plusSeconds(1), LEASE, EXPIRES)).isInstanceOf(Claim.Mismatch.class);
    }

    @Test
    void aReleasedClaimIsWonAgainAndAnAbandonedOneAfterItsLease() {
        assertThat(store.claim("s", "fp", "a", T0, LEASE, EXPIRES)).isInstanceOf(Claim.Won.class);
        assertThat(store.claim("s", "fp", "b", T0.plusSeconds(29), LEASE, EXPIRES)).isInstanceOf(Claim.Pending.class);
        store.release("s", "b"); // not b's claim: nothing happens
        assertThat(store.claim("s", "fp", "b", T0.plusSeconds(29), LEASE, EXPIRES)).isInstanceOf(Claim.Pending.class);
        store.release("s", "a");
        assertThat(store.claim("s", "fp", "b", T0.plusSeconds(29), LEASE, EXPIRES)).isInstanceOf(Claim.Won.class);

        // b stops renewing (its instance died): after the lease, c takes over; b can no longer complete
        assertThat(store.claim("s", "fp", "c", LEASE.plusMillis(1), LEASE.plusSeconds(30), EXPIRES))
                .isInstanceOf(Claim.Won.class);
        store.complete("s", "b", ANSWER, EXPIRES);
        assertThat(store.claim("s", "fp", "d", LEASE.plusMillis(2), LEASE.plusSeconds(60), EXPIRES))
                .isInstanceOf(Claim.Pending.class);
    }

    @Test
    void renewalKeepsAClaimAndExpiredAnswersArePrunedOrTakenOver() {
        assertThat(store.claim("s", "fp", "a", T0, LEASE, EXPIRES)).isInstanceOf(Claim.Won.class);
        store.renew(Set.of("s"), "a", LEASE.plusSeconds(30));
        assertThat(store.claim("s", "fp", "b", LEASE.plusSeconds(1), LEASE, EXPIRES)).isInstanceOf(Claim.Pending.class);
        store.complete("s", "a", ANSWER, T0.plusSeconds(60));
        assertThat(store.claim("s2", "fp", "a", T0, LEASE, T0.plusSeconds(10))).isInstanceOf(Claim.Won.class);
        store.complete("s2", "a", ANSWER, T0.plusSeconds(10));

        assertThat(store.prune(T0.plusSeconds(30))).isEqualTo(1);
        assertThat(store.claim("s2", "other", "b", T0.plusSeconds(30), LEASE, EXPIRES)).isInstanceOf(Claim.Won.class);
        // an expired answer is taken over in place, whatever the new body
        assertThat(store.claim("s", "other", "b", T0.plusSeconds(61), LEASE, EXPIRES)).isInstanceOf(Claim.Won.class);
    }
}
