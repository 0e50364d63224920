package dev.switchboard.engine.account;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.engine.account.AccountException.Kind;
import dev.switchboard.engine.account.AdminService.CreateKey;
import dev.switchboard.engine.account.AdminService.CreateUser;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

class AdminServiceTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final InMemoryAccountStore store = new InMemoryAccountStore();
    private final Users users = new Users(store, new Passwords(1), clock);
    private final ApiKeys keys = new ApiKeys(store, clock);
    private final AdminService admin = new AdminService(store, users, keys, clock);

    private static CreateUser user(String name) {
        return new CreateUser(Optional.ofNullable(name), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    }

    private static AdminService.AddCredits credits(String amountUsd, Optional<String> note) {
        return new AdminService.AddCredits(Optional.of(amountUsd), note);
    }

    private static CreateKey key(List<String> models, List<String> endpoints, OptionalLong rpm, OptionalLong dailyTokens,
                                 Optional<String> expiresAt) {
        return new CreateKey(Optional.empty(), models, endpoints, limits(rpm, OptionalLong.empty(), dailyTokens,
                OptionalLong.empty(), Optional.empty(), Optional.empty()), expiresAt);
    }

    private static AdminService.LimitsInput limits(OptionalLong rpm, OptionalLong tpm, OptionalLong dailyTokens,
                                                   OptionalLong maxParallel, Optional<String> budgetUsd,
                                                   Optional<String> budgetPeriod) {
        return new AdminService.LimitsInput(rpm, tpm, dailyTokens, maxParallel, budgetUsd, budgetPeriod);
    }

    @Test
    void createsAPayAsYouGoUserWithDefaults() {
        User u = admin.createUser(user("  alice "));

        assertThat(u.name()).isEqualTo("alice");
        assertThat(u.plan()).isEqualTo("payg");
        assertThat(u.balanceNanos()).isZero();
        assertThat(u.id()).startsWith("usr_");
        assertThat(store.findUser(u.id())).contains(u);
    }

    @Test
    void takesEveryFieldAndHashesThePassword() {
        User u = admin.createUser(new CreateUser(Optional.of("bob"), Optional.of(" Bob@Example.com"),
                Optional.of("s3cret-password"), Optional.of("pro"), Optional.of("25.50")));

        assertThat(u.email()).contains("bob@example.com");
        assertThat(u.plan()).isEqualTo("pro");
        assertThat(u.balanceNanos()).isEqualTo(25_500_000_000L);
        PasswordHash hash = store.passwordHash(u.id()).orElseThrow();
        assertThat(hash.encoded()).doesNotContain("s3cret");
        assertThat(new Passwords().verify("s3cret-password", hash)).isTrue();
        assertThat(store.ledger(u.id(), 10)).singleElement()
                .satisfies(e -> assertThat(e.balanceAfterNanos()).isEqualTo(25_500_000_000L));
    }

    @Test
    void userValidationNamesTheField() {
        assertInvalid("name", () -> admin.createUser(user(null)));
        assertInvalid("name", () -> admin.createUser(user("   ")));
        assertInvalid("name", () -> admin.createUser(user("x".repeat(101))));
        assertInvalid("name", () -> admin.createUser(user("a\u0000b")));
        assertInvalid("email", () -> admin.createUser(new CreateUser(Optional.of("c"), Optional.of("not-an-address"),
                Optional.empty(), Optional.empty(), Optional.empty())));
        assertInvalid("password", () -> admin.createUser(new CreateUser(Optional.of("c"), Optional.empty(),
                Optional.of("short"), Optional.empty(), Optional.empty())));
        assertInvalid("plan", () -> admin.createUser(new CreateUser(Optional.of("c"), Optional.empty(),
                Optional.empty(), Optional.of("Gold Plan"), Optional.empty())));
        assertInvalid("balance_usd", () -> admin.createUser(new CreateUser(Optional.of("c"), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.of("-1"))));
        assertInvalid("balance_usd", () -> admin.createUser(new CreateUser(Optional.of("c"), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.of("1.5e2"))));
        assertThat(store.hasUsers()).isFalse();
    }

    @Test
    void aTakenNameIsAConflict() {
        admin.createUser(user("alice"));
        assertThatThrownBy(() -> admin.createUser(user("alice")))
                .isInstanceOfSatisfying(AccountException.class, e -> {
                    assertThat(e.kind()).isEqualTo(Kind.CONFLICT);
                    assertThat(e.field()).contains("name");
                });
    }

    @Test
    void creditsAddUpInTheLedger() {
        User u = admin.createUser(user("alice"));

        admin.addCredits(u.id(), credits("1.25", Optional.of(" top-up ")));
        clock.advance(java.time.Duration.ofMillis(1)); // entries of one millisecond have no defined order
        LedgerEntry second = admin.addCredits(u.id(), credits("0.000000001", Optional.of("  ")));

        assertThat(second.balanceAfterNanos()).isEqualTo(1_250_000_001L);
        assertThat(second.note()).isEmpty();
        assertThat(admin.getUser(u.id()).user().balanceNanos()).isEqualTo(1_250_000_001L);
        assertThat(admin.getUser(u.id()).recentLedger()).extracting(LedgerEntry::note)
                .containsExactly(Optional.empty(), Optional.of("top-up"));
    }

    @Test
    void creditValidation() {
        User u = admin.createUser(user("alice"));
        assertInvalid("amount_usd", () -> admin.addCredits(u.id(), new AdminService.AddCredits(Optional.empty(), Optional.empty())));
        assertInvalid("amount_usd", () -> admin.addCredits(u.id(), credits("0", Optional.empty())));
        assertInvalid("amount_usd", () -> admin.addCredits(u.id(), credits("-5", Optional.empty())));
        assertInvalid("amount_usd", () -> admin.addCredits(u.id(), credits("ten", Optional.empty())));
        assertInvalid("note", () -> admin.addCredits(u.id(), credits("1", Optional.of("n".repeat(501)))));
        assertNotFound(() -> admin.addCredits("usr_missing", credits("1", Optional.empty())));
    }

    @Test
    void createsAScopedKeyShownOnce() {
        User u = admin.createUser(user("alice"));

        IssuedKey issued = admin.createKey(u.id(), new CreateKey(Optional.of("ci"), List.of("gpt-4o"),
                List.of("chat_completions"), limits(OptionalLong.of(60), OptionalLong.empty(), OptionalLong.of(100_000),
                OptionalLong.empty(), Optional.empty(), Optional.empty()), Optional.of("2027-01-01T00:00:00Z")));

        ApiKey k = issued.key();
        assertThat(k.name()).isEqualTo("ci");
        assertThat(k.scope()).isEqualTo(new KeyScope(List.of("gpt-4o"), List.of("chat_completions")));
        assertThat(k.limits().rpm()).hasValue(60);
        assertThat(k.limits().dailyTokens()).hasValue(100_000);
        assertThat(k.expiresAt()).contains(Instant.parse("2027-01-01T00:00:00Z"));
        assertThat(admin.getUser(u.id()).keys()).containsExactly(k);
    }

    @Test
    void keyDefaults() {
        User u = admin.createUser(user("alice"));
        ApiKey k = admin.createKey(u.id(), CreateKey.defaults()).key();

        assertThat(k.name()).isEqualTo("default");
        assertThat(k.scope()).isEqualTo(KeyScope.ALL);
        assertThat(k.limits()).isEqualTo(KeyLimits.NONE);
        assertThat(k.expiresAt()).isEmpty();
    }

    @Test
    void keyValidationNamesTheField() {
        User u = admin.createUser(user("alice"));
        String id = u.id();
        assertInvalid("name", () -> admin.createKey(id, new CreateKey(Optional.of(" "), List.of(), List.of(),
                AdminService.LimitsInput.NONE, Optional.empty())));
        assertInvalid("models", () -> admin.createKey(id, key(List.of(""), List.of(), OptionalLong.empty(),
                OptionalLong.empty(), Optional.empty())));
        assertInvalid("endpoints", () -> admin.createKey(id, key(List.of(), List.of("everything"), OptionalLong.empty(),
                OptionalLong.empty(), Optional.empty())));
        assertInvalid("rpm", () -> admin.createKey(id, key(List.of(), List.of(), OptionalLong.of(0),
                OptionalLong.empty(), Optional.empty())));
        assertInvalid("rpm", () -> admin.createKey(id, key(List.of(), List.of(), OptionalLong.of(1L << 40),
                OptionalLong.empty(), Optional.empty())));
        assertInvalid("daily_tokens", () -> admin.createKey(id, key(List.of(), List.of(), OptionalLong.empty(),
                OptionalLong.of(-1), Optional.empty())));
        assertInvalid("expires_at", () -> admin.createKey(id, key(List.of(), List.of(), OptionalLong.empty(),
                OptionalLong.empty(), Optional.of("tomorrow"))));
        assertInvalid("expires_at", () -> admin.createKey(id, key(List.of(), List.of(), OptionalLong.empty(),
                OptionalLong.empty(), Optional.of("2020-01-01T00:00:00Z"))));
        assertThat(store.keysOf(id)).isEmpty();
    }

    @Test
    void aKeyForAMissingUserIsNotFoundEvenWhenInvalid() {
        assertNotFound(() -> admin.createKey("usr_missing", key(List.of(), List.of("nope"), OptionalLong.empty(),
                OptionalLong.empty(), Optional.empty())));
    }

    @Test
    void revocationIsIdempotentButNeedsAnExistingKey() {
        User u = admin.createUser(user("alice"));
        IssuedKey issued = admin.createKey(u.id(), CreateKey.defaults());

        admin.revokeKey(issued.key().id());
        Instant first = store.keysOf(u.id()).getFirst().revokedAt().orElseThrow();
        clock.advance(java.time.Duration.ofMinutes(5));
        admin.revokeKey(issued.key().id());

        assertThat(store.keysOf(u.id()).getFirst().revokedAt()).contains(first);
        assertThat(keys.authenticate(issued.secret())).isEqualTo(
                new Authentication.Rejected(Authentication.Reason.REVOKED));
        assertNotFound(() -> admin.revokeKey("key_missing"));
    }

    @Test
    void unknownUserIsNotFound() {
        assertNotFound(() -> admin.getUser("usr_missing"));
    }

    private static void assertInvalid(String field, ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(AccountException.class, e -> {
            assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.INVALID);
            assertThat(e.field()).as(e.getMessage()).contains(field);
            assertThat(e.getMessage()).startsWith(field + ":");
        });
    }

    private static void assertNotFound(ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(AccountException.class,
                e -> assertThat(e.kind()).isEqualTo(Kind.NOT_FOUND));
    }

    @Test
    void aKeyIsCreatedWithEveryLimit() {
        User u = admin.createUser(user("alice"));
        ApiKey k = admin.createKey(u.id(), new CreateKey(Optional.empty(), List.of(), List.of(),
                limits(OptionalLong.of(10), OptionalLong.of(20_000), OptionalLong.of(1_000_000), OptionalLong.of(3),
                        Optional.of("12.5"), Optional.of("Monthly")), Optional.empty())).key();

        assertThat(k.limits()).isEqualTo(new KeyLimits(OptionalLong.of(10), OptionalLong.of(20_000), OptionalLong.of(1_000_000),
                OptionalLong.of(3), Optional.of(new KeyBudget(12_500_000_000L, BudgetPeriod.MONTHLY))));
        ApiKey totalBudget = admin.createKey(u.id(), new CreateKey(Optional.empty(), List.of(), List.of(),
                limits(OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(),
                        Optional.of("1"), Optional.empty()), Optional.empty())).key();
        assertThat(totalBudget.limits().budget()).contains(new KeyBudget(1_000_000_000L, BudgetPeriod.TOTAL));
    }

    @Test
    void limitValidationNamesTheField() {
        String id = admin.createUser(user("alice")).id();
        assertInvalid("tpm", () -> admin.createKey(id, new CreateKey(Optional.empty(), List.of(), List.of(),
                limits(OptionalLong.empty(), OptionalLong.of(0), OptionalLong.empty(), OptionalLong.empty(), Optional.empty(),
                        Optional.empty()), Optional.empty())));
        assertInvalid("max_parallel", () -> admin.createKey(id, new CreateKey(Optional.empty(), List.of(), List.of(),
                limits(OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.of(-2), Optional.empty(),
                        Optional.empty()), Optional.empty())));
        assertInvalid("budget_usd", () -> admin.createKey(id, new CreateKey(Optional.empty(), List.of(), List.of(),
                limits(OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(), Optional.of("0"),
                        Optional.empty()), Optional.empty())));
        assertInvalid("budget_usd", () -> admin.createKey(id, new CreateKey(Optional.empty(), List.of(), List.of(),
                limits(OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(), Optional.of("lots"),
                        Optional.empty()), Optional.empty())));
        assertInvalid("budget_period", () -> admin.createKey(id, new CreateKey(Optional.empty(), List.of(), List.of(),
                limits(OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(), Optional.of("5"),
                        Optional.of("yearly")), Optional.empty())));
        assertInvalid("budget_period", () -> admin.createKey(id, new CreateKey(Optional.empty(), List.of(), List.of(),
                limits(OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(), Optional.empty(),
                        Optional.of("daily")), Optional.empty())));
    }

    @Test
    void aKeysLimitsAreChangedSetAndClearedByAPatch() {
        User u = admin.createUser(user("alice"));
        ApiKey k = admin.createKey(u.id(), key(List.of("gpt-4o"), List.of(), OptionalLong.of(60), OptionalLong.of(1000),
                Optional.empty())).key();

        ApiKey changed = admin.updateKey(k.id(), new AdminService.UpdateKey(new Change.Set<>("renamed"), new Change.Clear<>(),
                new Change.Keep<>(), new Change.Set<>(5L), new Change.Set<>(700L), new Change.Clear<>(), new Change.Keep<>(),
                new Change.Set<>("2"), new Change.Set<>("daily"), new Change.Keep<>()));

        assertThat(changed.name()).isEqualTo("renamed");
        assertThat(changed.scope()).isEqualTo(KeyScope.ALL);
        assertThat(changed.limits()).isEqualTo(new KeyLimits(OptionalLong.of(5), OptionalLong.of(700), OptionalLong.empty(),
                OptionalLong.empty(), Optional.of(new KeyBudget(2_000_000_000L, BudgetPeriod.DAILY))));
        assertThat(admin.keysOf(u.id())).containsExactly(changed);

        ApiKey periodOnly = admin.updateKey(k.id(), new AdminService.UpdateKey(new Change.Keep<>(), new Change.Keep<>(),
                new Change.Keep<>(), new Change.Keep<>(), new Change.Keep<>(), new Change.Keep<>(), new Change.Keep<>(),
                new Change.Keep<>(), new Change.Set<>("weekly"), new Change.Keep<>()));
        assertThat(periodOnly.limits().budget()).contains(new KeyBudget(2_000_000_000L, BudgetPeriod.WEEKLY));
        ApiKey noBudget = admin.updateKey(k.id(), new AdminService.UpdateKey(new Change.Keep<>(), new Change.Keep<>(),
                new Change.Keep<>(), new Change.Keep<>(), new Change.Keep<>(), new Change.Keep<>(), new Change.Keep<>(),
                new Change.Clear<>(), new Change.Keep<>(), new Change.Keep<>()));
        assertThat(noBudget.limits().budget()).isEmpty();
        assertThat(noBudget.limits().rpm()).hasValue(5);
        assertThat(admin.updateKey(k.id(), AdminService.UpdateKey.none())).isEqualTo(noBudget);
    }

    @Test
    void aPatchOfAMissingKeyIsNotFoundAndABadFieldIsNamed() {
        assertNotFound(() -> admin.updateKey("key_missing", AdminService.UpdateKey.none()));
        String id = admin.createKey(admin.createUser(user("alice")).id(), CreateKey.defaults()).key().id();
        assertInvalid("rpm", () -> admin.updateKey(id, new AdminService.UpdateKey(new Change.Keep<>(), new Change.Keep<>(),
                new Change.Keep<>(), new Change.Set<>(0L), new Change.Keep<>(), new Change.Keep<>(), new Change.Keep<>(),
                new Change.Keep<>(), new Change.Keep<>(), new Change.Keep<>())));
        assertInvalid("budget_period", () -> admin.updateKey(id, new AdminService.UpdateKey(new Change.Keep<>(),
                new Change.Keep<>(), new Change.Keep<>(), new Change.Keep<>(), new Change.Keep<>(), new Change.Keep<>(),
                new Change.Keep<>(), new Change.Keep<>(), new Change.Set<>("daily"), new Change.Keep<>())));
        assertInvalid("expires_at", () -> admin.updateKey(id, new AdminService.UpdateKey(new Change.Keep<>(),
                new Change.Keep<>(), new Change.Keep<>(), new Change.Keep<>(), new Change.Keep<>(), new Change.Keep<>(),
                new Change.Keep<>(), new Change.Keep<>(), new Change.Keep<>(), new Change.Set<>("2001-01-01T00:00:00Z"))));
    }
}
