package dev.switchboard.engine.account;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.engine.account.Authentication.Authenticated;
import dev.switchboard.engine.account.Authentication.Reason;
import dev.switchboard.engine.account.Authentication.Rejected;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ApiKeysTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00.123456Z"));
    private final InMemoryAccountStore store = new InMemoryAccountStore();
    private final ApiKeys keys = new ApiKeys(store, clock);
    private User alice;

    @BeforeEach
    void createUser() {
        alice = new Users(store, new Passwords(1), clock).create(NewUser.named("alice", 0));
    }

    @Test
    void issuedKeyHas256RandomBitsBehindTheFixedPrefix() {
        IssuedKey issued = keys.issue(alice.id(), NewKey.unrestricted("ci"));

        assertThat(issued.secret()).matches("sk-sb-[A-Za-z0-9_-]{43}");
        assertThat(issued.key().prefix()).isEqualTo(issued.secret().substring(0, 12));
        assertThat(issued.key().userId()).isEqualTo(alice.id());
        assertThat(issued.key().createdAt()).isEqualTo(Instant.parse("2026-03-01T10:00:00.123Z"));
    }

    @Test
    void keysAreDistinct() {
        Set<String> secrets = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            secrets.add(keys.issue(alice.id(), NewKey.unrestricted("k" + i)).secret());
        }
        assertThat(secrets).hasSize(200);
    }

    @Test
    void storeReceivesOnlyTheSha256OfTheSecret() {
        IssuedKey issued = keys.issue(alice.id(), NewKey.unrestricted("ci"));

        StoredKey stored = store.allKeys().getFirst();
        assertThat(stored.hash()).isEqualTo(KeyHash.of(issued.secret()));
        assertThat(stored.toString()).doesNotContain(issued.secret());
        assertThat(issued.toString()).doesNotContain(issued.secret()).contains(issued.key().prefix());
    }

    @Test
    void theIssuedSecretAuthenticatesAsItsOwner() {
        IssuedKey issued = keys.issue(alice.id(), NewKey.unrestricted("ci"));

        Authentication result = keys.authenticate(issued.secret());

        assertThat(result).isInstanceOfSatisfying(Authenticated.class, a -> {
            assertThat(a.principal().user()).isEqualTo(alice);
            assertThat(a.principal().key()).isEqualTo(issued.key());
        });
    }

    @Test
    void aWellFormedButWrongKeyIsUnknown() {
        IssuedKey issued = keys.issue(alice.id(), NewKey.unrestricted("ci"));
        char last = issued.secret().charAt(issued.secret().length() - 1);
        String wrong = issued.secret().substring(0, issued.secret().length() - 1) + (last == 'A' ? 'B' : 'A');

        assertThat(keys.authenticate(wrong)).isEqualTo(new Rejected(Reason.UNKNOWN));
    }

    @Test
    void malformedKeysAreRejectedWithoutAskingTheStore() {
        IssuedKey issued = keys.issue(alice.id(), NewKey.unrestricted("ci"));
        int before = store.hashLookups.get();

        for (String bad : List.of("", "sk-sb-", issued.secret() + "x", issued.secret().substring(1),
                "sk-xx-" + issued.secret().substring(6), issued.secret().replace(issued.secret().charAt(20), '+'),
                "Bearer " + issued.secret(), " " + issued.secret())) {
            assertThat(keys.authenticate(bad)).as(bad).isEqualTo(new Rejected(Reason.MALFORMED));
        }
        assertThat(store.hashLookups.get()).isEqualTo(before);
    }

    @Test
    void aKeyRevokedHereIsRejectedAtOnce() {
        IssuedKey issued = keys.issue(alice.id(), NewKey.unrestricted("ci"));
        assertThat(keys.authenticate(issued.secret())).isInstanceOf(Authenticated.class);

        store.revokeKey(issued.key().id(), clock.instant());
        keys.forget(issued.key().id());

        assertThat(keys.authenticate(issued.secret())).isEqualTo(new Rejected(Reason.REVOKED));
    }

    @Test
    void aLookupThatReadTheStoreBeforeARevocationHereLeavesNothingToReuse() throws Exception {
        IssuedKey issued = keys.issue(alice.id(), NewKey.unrestricted("ci"));
        java.util.concurrent.CountDownLatch read = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch revoked = new java.util.concurrent.CountDownLatch(1);
        // the store answers "not revoked", then the key is revoked here before the lookup keeps its answer
        AccountStore slow = (AccountStore) java.lang.reflect.Proxy.newProxyInstance(AccountStore.class.getClassLoader(),
                new Class<?>[] {AccountStore.class}, (proxy, m, args) -> {
                    Object answer;
                    try {
                        answer = m.invoke(store, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (m.getName().equals("findKeyByHash") && read.getCount() > 0) {
                        read.countDown();
                        revoked.await();
                    }
                    return answer;
                });
        ApiKeys slowKeys = new ApiKeys(slow, clock);
        var early = java.util.concurrent.CompletableFuture.supplyAsync(() -> slowKeys.authenticate(issued.secret()),
                java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        read.await();

        store.revokeKey(issued.key().id(), clock.instant());
        slowKeys.forget(issued.key().id());
        revoked.countDown();

        assertThat(early.get()).as("it asked before the revocation").isInstanceOf(Authenticated.class);
        assertThat(slowKeys.authenticate(issued.secret())).as("the next request, after it").isEqualTo(new Rejected(Reason.REVOKED));
    }

    @Test
    void aKeyRevokedByAnotherInstanceIsRejectedOnceTheReusedLookupExpires() {
        IssuedKey issued = keys.issue(alice.id(), NewKey.unrestricted("ci"));
        assertThat(keys.authenticate(issued.secret())).isInstanceOf(Authenticated.class);
        int lookups = store.hashLookups.get();

        store.revokeKey(issued.key().id(), clock.instant());
        assertThat(keys.authenticate(issued.secret())).isInstanceOf(Authenticated.class);
        assertThat(store.hashLookups.get()).isEqualTo(lookups);

        clock.advance(ApiKeys.CACHE_TTL);
        assertThat(keys.authenticate(issued.secret())).isEqualTo(new Rejected(Reason.REVOKED));
    }

    @Test
    void concurrentLookupsOfAKeyWhoseReuseRanOutAskTheStoreOnce() throws Exception {
        IssuedKey issued = keys.issue(alice.id(), NewKey.unrestricted("busy"));
        assertThat(keys.authenticate(issued.secret())).isInstanceOf(Authenticated.class);
        clock.advance(ApiKeys.CACHE_TTL);
        int before = store.hashLookups.get();
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        store.beforeHashLookup = () -> await(release);
        int callers = 20;
        List<java.util.concurrent.Future<Authentication>> answers = new java.util.ArrayList<>();
        try (var pool = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < callers; i++) {
                answers.add(pool.submit(() -> keys.authenticate(issued.secret())));
            }
            // every caller but the one asking the store waits for its answer (never reached without single flight)
            while (keys.joinedLookups() < callers - 1) {
                Thread.onSpinWait();
            }
            assertThat(store.hashLookups.get()).isEqualTo(before + 1);
            release.countDown();
            for (var answer : answers) {
                assertThat(answer.get()).isInstanceOf(Authenticated.class);
            }
        }
        assertThat(store.hashLookups.get()).isEqualTo(before + 1);
    }

    @Test
    void aStoreFailureDuringASharedLookupFailsEveryWaiterAndIsNotKept() throws Exception {
        IssuedKey issued = keys.issue(alice.id(), NewKey.unrestricted("flaky"));
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        store.beforeHashLookup = () -> {
            await(release);
            throw new IllegalStateException("database down");
        };
        try (var pool = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            var first = pool.submit(() -> keys.authenticate(issued.secret()));
            var second = pool.submit(() -> keys.authenticate(issued.secret()));
            while (keys.joinedLookups() < 1) {
                Thread.onSpinWait();
            }
            release.countDown();
            for (var f : List.of(first, second)) {
                assertThatThrownBy(f::get).hasCauseInstanceOf(IllegalStateException.class);
            }
        }
        store.beforeHashLookup = () -> { };
        assertThat(keys.authenticate(issued.secret())).isInstanceOf(Authenticated.class);
    }

    @Test
    void aKeyExpiresAtItsExpiryInstant() {
        Instant expiry = clock.instant().plus(Duration.ofHours(1)).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        IssuedKey issued = keys.issue(alice.id(), new NewKey("short", KeyScope.ALL, KeyLimits.NONE,
                Optional.of(expiry)));

        clock.advance(Duration.ofMinutes(59));
        assertThat(keys.authenticate(issued.secret())).isInstanceOf(Authenticated.class);

        clock.advance(Duration.between(clock.instant(), expiry));
        assertThat(keys.authenticate(issued.secret())).isEqualTo(new Rejected(Reason.EXPIRED));
    }

    @Test
    void anExpiryInThePastIsRefused() {
        NewKey spec = new NewKey("late", KeyScope.ALL, KeyLimits.NONE,
                Optional.of(clock.instant().minusSeconds(1)));

        assertThatThrownBy(() -> keys.issue(alice.id(), spec))
                .isInstanceOfSatisfying(AccountException.class, e -> {
                    assertThat(e.kind()).isEqualTo(AccountException.Kind.INVALID);
                    assertThat(e.field()).contains("expires_at");
                });
    }

    @Test
    void issuingForAnUnknownUserIsNotFound() {
        assertThatThrownBy(() -> keys.issue("usr_nobody", NewKey.unrestricted("x")))
                .isInstanceOfSatisfying(AccountException.class,
                        e -> assertThat(e.kind()).isEqualTo(AccountException.Kind.NOT_FOUND));
    }

    @Test
    void anAdminKeyIsNotAnApiKey() {
        assertThat(keys.authenticate(AdminKeys.PREFIX + "a".repeat(43))).isEqualTo(new Rejected(Reason.MALFORMED));
    }

    /** Holds a store lookup until the test releases it, so the test can pile callers up behind it. */
    private static void await(java.util.concurrent.CountDownLatch release) {
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
