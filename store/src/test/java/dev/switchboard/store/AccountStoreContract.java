package dev.switchboard.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.engine.account.AccountException;
import dev.switchboard.engine.account.AccountException.Kind;
import dev.switchboard.engine.account.AdminKeys;
import dev.switchboard.engine.account.AdminService;
import dev.switchboard.engine.account.ApiKey;
import dev.switchboard.engine.account.ApiKeys;
import dev.switchboard.engine.account.Authentication;
import dev.switchboard.engine.account.Authentication.Authenticated;
import dev.switchboard.engine.account.IssuedKey;
import dev.switchboard.engine.account.KeyHash;
import dev.switchboard.engine.account.BudgetPeriod;
import dev.switchboard.engine.account.KeyBudget;
import dev.switchboard.engine.account.KeyLimits;
import dev.switchboard.engine.account.KeyScope;
import dev.switchboard.engine.account.LedgerEntry;
import dev.switchboard.engine.account.PasswordHash;
import dev.switchboard.engine.account.Passwords;
import dev.switchboard.engine.account.User;
import dev.switchboard.engine.account.Users;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.LongStream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every {@link dev.switchboard.engine.account.AccountStore} and
 * {@link dev.switchboard.engine.account.AdminKeyStore} contract, run against a real database.
 * A subclass says on which database engine.
 */
abstract class AccountStoreContract extends StoreContract {

    protected JdbcAccountStore store;

    @BeforeEach
    final void createStore() throws Exception {
        store = new JdbcAccountStore(database);
    }

    private static User user(String id, String name, Optional<String> email, long balance) {
        return new User(id, name, email, "payg", balance, T0);
    }

    private static ApiKey key(String id, String userId, Instant createdAt) {
        return new ApiKey(id, userId, "k-" + id, "sk-sb-abcdef", KeyScope.ALL, KeyLimits.NONE,
                Optional.empty(), Optional.empty(), createdAt);
    }

    private static KeyHash hash(String secret) {
        return KeyHash.of(secret);
    }

    // ---- users

    @Test
    void aCreatedUserIsFoundByIdAndName() {
        User alice = new User("usr_a", "alice", Optional.of("alice@example.com"), "pro", 0, T0);
        store.createUser(alice, Optional.empty());

        assertThat(store.findUser("usr_a")).contains(alice);
        assertThat(store.findUserByName("alice")).contains(alice);
        assertThat(store.findUser("usr_b")).isEmpty();
        assertThat(store.findUserByName("Alice")).isEmpty();
    }

    @Test
    void hasUsersTellsAnEmptyDatabase() {
        assertThat(store.hasUsers()).isFalse();
        store.createUser(user("usr_a", "alice", Optional.empty(), 0), Optional.empty());
        assertThat(store.hasUsers()).isTrue();
    }

    @Test
    void takenNamesEmailsAndIdsAreConflictsNamingTheField() {
        store.createUser(user("usr_a", "alice", Optional.of("a@example.com"), 0), Optional.empty());
        store.createUser(user("usr_b", "bob", Optional.empty(), 0), Optional.empty());
        store.createUser(user("usr_c", "carol", Optional.empty(), 0), Optional.empty()); // no e-mail twice is fine

        assertConflict("name", () -> store.createUser(user("usr_x", "alice", Optional.empty(), 5), Optional.empty()));
        assertConflict("email", () -> store.createUser(user("usr_x", "xavier", Optional.of("a@example.com"), 5), Optional.empty()));
        assertConflict("id", () -> store.createUser(user("usr_a", "xavier", Optional.empty(), 5), Optional.empty()));
        assertThat(store.findUser("usr_x")).isEmpty();
        assertThat(store.findUserByName("xavier")).isEmpty();
    }

    @Test
    void onlyThePasswordHashIsKept() {
        PasswordHash hash = new Passwords(1).hash("a long enough password");
        store.createUser(user("usr_a", "alice", Optional.empty(), 0), Optional.of(hash));
        store.createUser(user("usr_b", "bob", Optional.empty(), 0), Optional.empty());

        assertThat(store.passwordHash("usr_a")).contains(hash);
        assertThat(store.passwordHash("usr_b")).isEmpty();
        assertThat(store.passwordHash("usr_missing")).isEmpty();
    }

    // ---- balance and ledger

    @Test
    void anOpeningBalanceIsExplainedByTheLedger() {
        store.createUser(user("usr_a", "alice", Optional.empty(), 7_000_000_000L), Optional.empty());
        store.createUser(user("usr_b", "bob", Optional.empty(), 0), Optional.empty());

        assertThat(store.ledger("usr_a", 10)).singleElement().satisfies(e -> {
            assertThat(e.kind()).isEqualTo(LedgerEntry.Kind.CREDIT);
            assertThat(e.amountNanos()).isEqualTo(7_000_000_000L);
            assertThat(e.balanceAfterNanos()).isEqualTo(7_000_000_000L);
            assertThat(e.createdAt()).isEqualTo(T0);
        });
        assertThat(store.ledger("usr_b", 10)).isEmpty();
    }

    @Test
    void aCreditMovesTheBalanceAndWritesOneEntry() {
        store.createUser(user("usr_a", "alice", Optional.empty(), 100), Optional.empty());

        LedgerEntry entry = store.addCredit("usr_a", 2_500_000_000L, Optional.of("invoice 42"), T0.plusSeconds(1));

        assertThat(entry.balanceAfterNanos()).isEqualTo(2_500_000_100L);
        assertThat(entry.amountNanos()).isEqualTo(2_500_000_000L);
        assertThat(entry.requestId()).isEmpty();
        assertThat(store.findUser("usr_a").orElseThrow().balanceNanos()).isEqualTo(2_500_000_100L);
        assertThat(store.ledger("usr_a", 10)).hasSize(2).first().isEqualTo(entry);
    }

    @Test
    void theLedgerIsNewestFirstAndLimited() {
        store.createUser(user("usr_a", "alice", Optional.empty(), 0), Optional.empty());
        for (int i = 1; i <= 5; i++) {
            store.addCredit("usr_a", i, Optional.empty(), T0.plusSeconds(i));
        }
        assertThat(store.ledger("usr_a", 3)).extracting(LedgerEntry::amountNanos).containsExactly(5L, 4L, 3L);
        assertThat(store.ledger("usr_missing", 3)).isEmpty();
    }

    @Test
    void creditingAnUnknownUserIsNotFound() {
        assertThatThrownBy(() -> store.addCredit("usr_missing", 1, Optional.empty(), T0))
                .isInstanceOfSatisfying(AccountException.class, e -> assertThat(e.kind()).isEqualTo(Kind.NOT_FOUND));
    }

    @Test
    void aCreditThatWouldOverflowIsRefusedAndChangesNothing() {
        store.createUser(user("usr_a", "alice", Optional.empty(), Long.MAX_VALUE - 10), Optional.empty());

        assertConflict("amount_usd", () -> store.addCredit("usr_a", 11, Optional.empty(), T0));

        assertThat(store.findUser("usr_a").orElseThrow().balanceNanos()).isEqualTo(Long.MAX_VALUE - 10);
        assertThat(store.addCredit("usr_a", 10, Optional.empty(), T0).balanceAfterNanos()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void concurrentCreditsLoseNothing() throws Exception {
        store.createUser(user("usr_a", "alice", Optional.empty(), 1_000), Optional.empty());
        Database second = open();
        JdbcAccountStore other = new JdbcAccountStore(second);
        int threads = 8;
        int perThread = 25;
        long amount = 1_000_000_007L;

        List<Callable<List<LedgerEntry>>> work = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            JdbcAccountStore s = t % 2 == 0 ? store : other; // two pools, as two instances would have
            work.add(() -> {
                List<LedgerEntry> mine = new ArrayList<>();
                for (int i = 0; i < perThread; i++) {
                    mine.add(s.addCredit("usr_a", amount, Optional.empty(), Instant.now()));
                }
                return mine;
            });
        }
        List<Long> balancesAfter = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (Future<List<LedgerEntry>> f : pool.invokeAll(work)) {
                f.get().forEach(e -> balancesAfter.add(e.balanceAfterNanos()));
            }
        }

        int n = threads * perThread;
        assertThat(store.findUser("usr_a").orElseThrow().balanceNanos()).isEqualTo(1_000 + n * amount);
        // Serializable in effect: every intermediate balance was seen by exactly one credit.
        assertThat(balancesAfter).containsExactlyInAnyOrderElementsOf(
                LongStream.rangeClosed(1, n).map(k -> 1_000 + k * amount).boxed().toList());
        assertThat(store.ledger("usr_a", 1_000)).as("the credits plus the opening balance").hasSize(n + 1);
    }

    @Test
    void aFailedLedgerWriteUndoesTheBalanceChange() throws Exception {
        store.createUser(user("usr_a", "alice", Optional.empty(), 500), Optional.empty());
        try (Connection c = database.dataSource().getConnection()) {
            testDatabase.failLedgerInserts(c);
        }

        assertThatThrownBy(() -> store.addCredit("usr_a", 1, Optional.empty(), T0)).isInstanceOf(StoreException.class);
        assertThatThrownBy(() -> store.createUser(user("usr_b", "bob", Optional.empty(), 9), Optional.empty()))
                .isInstanceOf(StoreException.class);

        assertThat(store.findUser("usr_a").orElseThrow().balanceNanos()).isEqualTo(500);
        assertThat(store.findUser("usr_b")).isEmpty();
    }

    // ---- keys

    @Test
    void aKeyIsFoundByItsHashWithEveryField() {
        store.createUser(user("usr_a", "alice", Optional.empty(), 0), Optional.empty());
        ApiKey full = new ApiKey("key_1", "usr_a", "ci", "sk-sb-abcdef",
                new KeyScope(List.of("gpt-4o", "anthropic/claude-sonnet-4"), List.of("messages", "chat_completions")),
                new KeyLimits(OptionalLong.of(60), OptionalLong.of(40_000), OptionalLong.of(5_000_000_000L), OptionalLong.of(4),
                        Optional.of(new KeyBudget(2_500_000_000L, BudgetPeriod.WEEKLY))),
                Optional.of(T0.plusSeconds(3600)), Optional.empty(), T0);
        ApiKey bare = key("key_2", "usr_a", T0);

        store.createKey(full, hash("secret-1"));
        store.createKey(bare, hash("secret-2"));

        assertThat(store.findKeyByHash(hash("secret-1"))).hasValueSatisfying(s -> {
            assertThat(s.key()).isEqualTo(full);
            assertThat(s.hash()).isEqualTo(hash("secret-1"));
        });
        assertThat(store.findKeyByHash(hash("secret-2")).map(s -> s.key())).contains(bare);
        assertThat(store.findKeyByHash(hash("secret-3"))).isEmpty();
    }

    @Test
    void aKeysSettingsAreUpdatedByIdAndTheRestStays() {
        store.createUser(user("usr_a", "alice", Optional.empty(), 0), Optional.empty());
        ApiKey key = key("key_1", "usr_a", T0);
        store.createKey(key, hash("secret-1"));
        ApiKey changed = key.withSettings("renamed", new KeyScope(List.of("m"), List.of("messages")),
                new KeyLimits(OptionalLong.of(5), OptionalLong.empty(), OptionalLong.of(10), OptionalLong.of(2),
                        Optional.of(new KeyBudget(1, BudgetPeriod.DAILY))), Optional.of(T0.plusSeconds(60)));

        assertThat(store.updateKey(changed)).isTrue();

        assertThat(store.findKey("key_1")).contains(changed);
        assertThat(store.findKeyByHash(hash("secret-1")).map(s -> s.key())).contains(changed);
        assertThat(store.updateKey(key("key_missing", "usr_a", T0))).isFalse();
        assertThat(store.findKey("key_missing")).isEmpty();
    }

    @Test
    void aKeyNeedsAnExistingOwner() {
        assertThatThrownBy(() -> store.createKey(key("key_1", "usr_missing", T0), hash("s")))
                .isInstanceOfSatisfying(AccountException.class, e -> assertThat(e.kind()).isEqualTo(Kind.NOT_FOUND));
    }

    @Test
    void aReusedHashOrIdIsAConflict() {
        store.createUser(user("usr_a", "alice", Optional.empty(), 0), Optional.empty());
        store.createKey(key("key_1", "usr_a", T0), hash("s"));

        assertConflict("id", () -> store.createKey(key("key_2", "usr_a", T0), hash("s")));
        assertConflict("id", () -> store.createKey(key("key_1", "usr_a", T0), hash("t")));
        assertThat(store.keysOf("usr_a")).hasSize(1);
    }

    @Test
    void keysOfListsAUsersKeysOldestFirstRevokedIncluded() {
        store.createUser(user("usr_a", "alice", Optional.empty(), 0), Optional.empty());
        store.createUser(user("usr_b", "bob", Optional.empty(), 0), Optional.empty());
        store.createKey(key("key_2", "usr_a", T0.plusSeconds(2)), hash("2"));
        store.createKey(key("key_1", "usr_a", T0.plusSeconds(1)), hash("1"));
        store.createKey(key("key_3", "usr_b", T0), hash("3"));
        store.revokeKey("key_1", T0.plusSeconds(5));

        assertThat(store.keysOf("usr_a")).extracting(ApiKey::id).containsExactly("key_1", "key_2");
        assertThat(store.keysOf("usr_a").getFirst().revokedAt()).contains(T0.plusSeconds(5));
        assertThat(store.keysOf("usr_missing")).isEmpty();
    }

    @Test
    void revocationIsIdempotentAndKeepsTheFirstTime() {
        store.createUser(user("usr_a", "alice", Optional.empty(), 0), Optional.empty());
        store.createKey(key("key_1", "usr_a", T0), hash("s"));

        assertThat(store.revokeKey("key_1", T0.plusSeconds(1))).isTrue();
        assertThat(store.revokeKey("key_1", T0.plusSeconds(2))).isTrue();
        assertThat(store.revokeKey("key_missing", T0)).isFalse();

        assertThat(store.findKeyByHash(hash("s")).orElseThrow().key().revokedAt()).contains(T0.plusSeconds(1));
    }

    @Test
    void aRevocationIsSeenByAnotherInstanceOnceItsReusedLookupExpires() {
        Clock clock = Clock.systemUTC();
        java.util.concurrent.atomic.AtomicReference<java.time.Duration> shift =
                new java.util.concurrent.atomic.AtomicReference<>(java.time.Duration.ZERO);
        Clock thereClock = new Clock() {
            @Override
            public java.time.ZoneId getZone() {
                return java.time.ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public java.time.Instant instant() {
                return clock.instant().plus(shift.get());
            }
        };
        JdbcAccountStore otherStore = new JdbcAccountStore(open());
        ApiKeys here = new ApiKeys(store, clock);
        ApiKeys there = new ApiKeys(otherStore, thereClock);
        AdminService admin = new AdminService(store, new Users(store, new Passwords(1), clock), here, clock);
        User alice = admin.createUser(new AdminService.CreateUser(Optional.of("alice"), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.of("3")));
        IssuedKey issued = admin.createKey(alice.id(), AdminService.CreateKey.defaults());

        assertThat(there.authenticate(issued.secret())).isInstanceOfSatisfying(Authenticated.class, a -> {
            assertThat(a.principal().user()).isEqualTo(alice);
            assertThat(a.principal().key()).isEqualTo(issued.key());
        });

        admin.revokeKey(issued.key().id());

        assertThat(here.authenticate(issued.secret()))
                .isEqualTo(new Authentication.Rejected(Authentication.Reason.REVOKED));
        shift.set(ApiKeys.CACHE_TTL);
        assertThat(there.authenticate(issued.secret()))
                .isEqualTo(new Authentication.Rejected(Authentication.Reason.REVOKED));
    }

    // ---- admin key

    @Test
    void theAdminKeyHashIsWrittenOnce() {
        assertThat(store.adminKeyHash()).isEmpty();

        assertThat(store.saveAdminKeyHashIfAbsent(hash("first"), T0)).isTrue();
        assertThat(store.saveAdminKeyHashIfAbsent(hash("second"), T0)).isFalse();

        assertThat(store.adminKeyHash()).contains(hash("first"));
    }

    @Test
    void concurrentFirstStartsGenerateOneAdminKey() throws Exception {
        List<Callable<Optional<String>>> starts = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            JdbcAccountStore s = new JdbcAccountStore(open());
            starts.add(() -> new AdminKeys(s, Optional.empty(), Clock.systemUTC()).ensureAdminKey());
        }
        List<String> printed = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(starts.size())) {
            for (Future<Optional<String>> f : pool.invokeAll(starts)) {
                f.get().ifPresent(printed::add);
            }
        }
        assertThat(printed).hasSize(1);
        assertThat(new AdminKeys(store, Optional.empty(), Clock.systemUTC()).isAdmin(printed.getFirst())).isTrue();
    }

    // ---- the database itself

    @Test
    void reopeningAMigratedDatabaseKeepsItsData() {
        store.createUser(user("usr_a", "alice", Optional.empty(), 0), Optional.empty());

        Database again = open();

        assertThat(again.ping()).isTrue();
        assertThat(new JdbcAccountStore(again).findUser("usr_a")).isPresent();
    }

    @Test
    void pingAnswersUntilClosed() {
        Database d = open();
        assertThat(d.ping()).isTrue();
        d.close();
        assertThat(d.ping()).isFalse();
    }

    private static void assertConflict(String field, ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(AccountException.class, e -> {
            assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.CONFLICT);
            assertThat(e.field()).as(e.getMessage()).contains(field);
        });
    }
}
