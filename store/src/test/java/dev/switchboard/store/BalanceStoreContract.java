package dev.switchboard.store;

import static dev.switchboard.store.ConcurrencySupport.concurrently;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.engine.account.AccountException;
import dev.switchboard.engine.account.LedgerEntry;
import dev.switchboard.engine.account.User;
import dev.switchboard.engine.billing.Balance;
import dev.switchboard.engine.billing.Hold;
import dev.switchboard.engine.billing.Reservation;
import dev.switchboard.engine.billing.SpendCap;
import dev.switchboard.engine.billing.Settled;
import dev.switchboard.engine.billing.UsageQuery;
import dev.switchboard.engine.billing.UsageRecord;
import dev.switchboard.engine.billing.UsageTotal;
import dev.switchboard.model.Usage;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@link dev.switchboard.engine.billing.BalanceStore} contracts against a real database: reservations are
 * one conditional update (no interleaving overdraws), settlement charges, releases and records in one
 * transaction and only once per request id, the sweeper releases only expired holds; and idempotent credits.
 */
abstract class BalanceStoreContract extends StoreContract {
    private static final long USD = 1_000_000_000L;
    private static final Instant LATER = T0.plus(Duration.ofHours(1));

    protected JdbcAccountStore accounts;
    protected JdbcBalanceStore store;

    @BeforeEach
    final void createStores() {
        accounts = new JdbcAccountStore(database);
        store = new JdbcBalanceStore(database);
    }

    private void user(String id, long balance) {
        accounts.createUser(new User(id, id, Optional.empty(), "payg", balance, T0), Optional.empty());
    }

    private static Hold hold(String requestId, String userId, long amount) {
        return new Hold(requestId, userId, "key_1", amount, LATER, T0);
    }

    private static UsageRecord record(String requestId, String userId, long cost, long charged, String model, Instant at) {
        return new UsageRecord(requestId, userId, "key_1", "chat_completions", model, model, "fake", false,
                new Usage(1000, 200, 0, 0, 0, 0, Usage.Provenance.REPORTED), cost, charged, Optional.empty(), "COMPLETED",
                Duration.ofMillis(120), at);
    }

    @Test
    void aHoldIsTakenOnlyWhenTheBalanceNotYetHeldCoversIt() {
        user("u1", 5 * USD);

        assertThat(store.reserve(hold("r1", "u1", 3 * USD)).held()).isTrue();
        assertThat(store.reserve(hold("r2", "u1", 3 * USD)).held()).as("only 2 USD left unheld").isFalse();
        assertThat(store.reserve(hold("r3", "u1", 2 * USD)).held()).isTrue();
        assertThat(store.balance("u1")).contains(new Balance(5 * USD, 5 * USD));
        assertThat(store.reserve(hold("r4", "nobody", 1)).held()).isFalse();
        assertThatThrownBy(() -> store.reserve(hold("r1", "u1", 0))).isInstanceOf(IllegalStateException.class);
        assertThat(store.balance("u1")).contains(new Balance(5 * USD, 5 * USD));
    }

    @Test
    void fiftyConcurrentReservationsOfOneDollarOnFiveFiftyTakeExactlyFive() throws Exception {
        user("u1", 5_500_000_000L);

        List<Boolean> held = concurrently(16, IntStream.range(0, 50)
                .mapToObj(i -> (Callable<Boolean>) () -> store.reserve(hold("r" + i, "u1", USD)).held()).toList());

        assertThat(held).filteredOn(h -> h).hasSize(5);
        assertThat(store.balance("u1")).contains(new Balance(5_500_000_000L, 5 * USD));
        assertThat(store.openHolds()).isEqualTo(5);
    }

    @Test
    void settlementChargesTheCostReleasesTheRestAndWritesOneLedgerEntryAndOneRecord() {
        user("u1", 10 * USD);
        store.reserve(hold("r1", "u1", 4 * USD));

        Settled settled = store.settle(record("r1", "u1", 1_234_567_891L, 1_234_567_891L, "m1", T0));

        assertThat(settled).isEqualTo(new Settled(1_234_567_891L, 10 * USD - 1_234_567_891L, false));
        assertThat(store.balance("u1")).contains(new Balance(10 * USD - 1_234_567_891L, 0));
        // The opening credit and the charge share a timestamp here; pick the charge by kind.
        List<LedgerEntry> charges = accounts.ledger("u1", 10).stream().filter(e -> e.kind() == LedgerEntry.Kind.CHARGE).toList();
        assertThat(charges).singleElement().satisfies(e -> {
            assertThat(e.amountNanos()).isEqualTo(-1_234_567_891L);
            assertThat(e.balanceAfterNanos()).isEqualTo(10 * USD - 1_234_567_891L);
            assertThat(e.requestId()).contains("r1");
        });
        assertThat(store.usage("r1")).hasValueSatisfying(r -> {
            assertThat(r.costNanos()).isEqualTo(1_234_567_891L);
            assertThat(r.chargedNanos()).isEqualTo(1_234_567_891L);
            assertThat(r.usage().inputTokens()).isEqualTo(1000);
            assertThat(r.latency()).isEqualTo(Duration.ofMillis(120));
        });
        assertThat(store.openHolds()).isZero();
    }

    @Test
    void fortyConcurrentSettlementsOfOneUserEachChargeOnceAndTheLedgerAddsUp() throws Exception {
        // 40 holds of 1 USD on 30 USD would not fit: 30 are held, every settlement charges 0.6 USD while others
        // still hold, so the caps and the row lock are exercised together
        user("u1", 30 * USD);
        List<String> held = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            if (store.reserve(hold("r" + i, "u1", USD)) == Reservation.HELD) {
                held.add("r" + i);
            }
        }
        assertThat(held).hasSize(30);

        List<Settled> settled = concurrently(16, held.stream()
                .map(id -> (Callable<Settled>) () -> store.settle(record(id, "u1", 600_000_000L, 600_000_000L, "m1", T0))).toList());

        long charged = settled.stream().mapToLong(Settled::chargedNanos).sum();
        assertThat(charged).isEqualTo(30 * 600_000_000L);
        assertThat(store.balance("u1")).contains(new Balance(30 * USD - charged, 0));
        List<LedgerEntry> charges = accounts.ledger("u1", 100).stream().filter(e -> e.kind() == LedgerEntry.Kind.CHARGE).toList();
        assertThat(charges).hasSize(30);
        assertThat(charges.stream().mapToLong(LedgerEntry::amountNanos).sum()).isEqualTo(-charged);
        // each entry's balance after is one step of the same sequence: no two settlements saw the same balance
        assertThat(charges.stream().map(LedgerEntry::balanceAfterNanos).distinct().count()).isEqualTo(30);
        assertThat(store.openHolds()).isZero();
    }

    @Test
    void aRepeatedSettlementChargesAndRecordsNothing() {
        user("u1", 10 * USD);
        store.reserve(hold("r1", "u1", 4 * USD));
        store.settle(record("r1", "u1", USD, USD, "m1", T0));

        Settled again = store.settle(record("r1", "u1", USD, USD, "m1", T0));

        assertThat(again.alreadySettled()).isTrue();
        assertThat(again.chargedNanos()).isZero();
        assertThat(store.balance("u1")).contains(new Balance(9 * USD, 0));
        assertThat(accounts.ledger("u1", 10)).filteredOn(e -> e.kind() == LedgerEntry.Kind.CHARGE).hasSize(1);
    }

    @Test
    void aChargeAboveWhatTheBalanceHasBeyondOtherHoldsIsCappedSoTheBalanceNeverGoesNegative() {
        user("u1", 3 * USD);
        store.reserve(hold("r1", "u1", USD));
        store.reserve(hold("other", "u1", USD));

        // The prompt was far longer than estimated: 5 USD of cost on 3 USD of balance, 1 USD held by another request.
        Settled settled = store.settle(record("r1", "u1", 5 * USD, 5 * USD, "m1", T0));

        assertThat(settled.chargedNanos()).isEqualTo(2 * USD);
        assertThat(store.balance("u1")).contains(new Balance(USD, USD));
        assertThat(store.usage("r1").orElseThrow().costNanos()).isEqualTo(5 * USD);
        assertThat(store.usage("r1").orElseThrow().chargedNanos()).isEqualTo(2 * USD);
    }

    @Test
    void aPlanCoveredRequestIsRecordedWithoutTouchingTheBalanceOrTheLedger() {
        user("u1", 0);

        Settled settled = store.settle(new UsageRecord("r1", "u1", "key_1", "messages", "m1", "m1", "fake", true,
                Usage.of(10, 20), 700, 0, Optional.of("pro"), "COMPLETED", Duration.ZERO, T0));

        assertThat(settled.chargedNanos()).isZero();
        assertThat(store.balance("u1")).contains(new Balance(0, 0));
        assertThat(accounts.ledger("u1", 10)).isEmpty();
        assertThat(store.usage("r1").orElseThrow().plan()).contains("pro");
    }

    private static Hold budgeted(String requestId, String keyId, long amount, SpendCap cap) {
        return new Hold(requestId, "u1", keyId, amount, LATER, T0, Optional.of(cap));
    }

    @Test
    void fiftyConcurrentReservationsOfOneDollarAgainstAKeyBudgetOfFiveTakeExactlyFive() throws Exception {
        user("u1", 100 * USD);
        SpendCap cap = new SpendCap(5 * USD, Instant.EPOCH);

        List<Reservation> reservations = concurrently(16, IntStream.range(0, 50)
                .mapToObj(i -> (Callable<Reservation>) () -> store.reserve(budgeted("r" + i, "key_b", USD, cap))).toList());

        assertThat(reservations).allSatisfy(r -> assertThat(r).isIn(Reservation.HELD, Reservation.OVER_KEY_BUDGET));
        assertThat(reservations).filteredOn(Reservation::held).hasSize(5);
        assertThat(store.balance("u1")).contains(new Balance(100 * USD, 5 * USD));
        assertThat(store.keySpend("key_b", Instant.EPOCH)).isEqualTo(5 * USD);
        // another key of the same user has a budget of its own
        assertThat(store.reserve(budgeted("other", "key_c", USD, cap))).isEqualTo(Reservation.HELD);
    }

    @Test
    void aKeyBudgetCountsTheKeysChargesInThePeriodAndItsOpenHolds() {
        user("u1", 100 * USD);
        store.reserve(budgeted("old", "key_b", 4 * USD, new SpendCap(10 * USD, Instant.EPOCH)));
        store.settle(new UsageRecord("old", "u1", "key_b", "chat_completions", "m1", "m1", "fake", false,
                Usage.of(10, 20), 3 * USD, 3 * USD, Optional.empty(), "COMPLETED", Duration.ZERO, T0));
        store.reserve(budgeted("open", "key_b", USD, new SpendCap(10 * USD, Instant.EPOCH)));

        SpendCap sinceBefore = new SpendCap(5 * USD, T0);
        assertThat(store.keySpend("key_b", T0)).isEqualTo(4 * USD);
        assertThat(store.reserve(budgeted("r1", "key_b", USD + 1, sinceBefore))).isEqualTo(Reservation.OVER_KEY_BUDGET);
        assertThat(store.balance("u1")).as("a refused reservation changes nothing").contains(new Balance(97 * USD, USD));
        assertThat(store.reserve(budgeted("r1", "key_b", USD, sinceBefore))).isEqualTo(Reservation.HELD);

        // a new period: the charge before it no longer counts, the open holds still do
        SpendCap nextPeriod = new SpendCap(5 * USD, T0.plusSeconds(1));
        assertThat(store.keySpend("key_b", T0.plusSeconds(1))).isEqualTo(2 * USD);
        assertThat(store.reserve(budgeted("r2", "key_b", 3 * USD, nextPeriod))).isEqualTo(Reservation.HELD);
        assertThat(store.reserve(budgeted("r3", "key_b", 1, nextPeriod))).isEqualTo(Reservation.OVER_KEY_BUDGET);

        // raising a hold checks only the difference against the budget
        assertThat(store.raise(budgeted("r2", "key_b", 3 * USD + 1, nextPeriod))).isEqualTo(Reservation.OVER_KEY_BUDGET);
        store.release("open");
        assertThat(store.raise(budgeted("r2", "key_b", 4 * USD, nextPeriod))).isEqualTo(Reservation.HELD);
        assertThat(store.keySpend("key_b", T0.plusSeconds(1))).isEqualTo(5 * USD);
        // the balance refuses first when it is what is short
        assertThat(store.reserve(budgeted("r4", "key_c", 1000 * USD, new SpendCap(1, Instant.EPOCH))))
                .isEqualTo(Reservation.SHORT_OF_BALANCE);
    }

    @Test
    void raisingAHoldTakesOnlyTheDifferenceAndOnlyWhenItIsCovered() {
        user("u1", 5 * USD);
        store.reserve(hold("r1", "u1", USD));
        store.reserve(hold("r2", "u1", 2 * USD));

        assertThat(store.raise(hold("r1", "u1", 3 * USD)).held()).isTrue();
        assertThat(store.balance("u1")).contains(new Balance(5 * USD, 5 * USD));
        assertThat(store.raise(hold("r1", "u1", 3 * USD + 1)).held()).isFalse();
        assertThat(store.raise(hold("r1", "u1", 2 * USD)).held()).as("already holds more").isTrue();
        assertThat(store.balance("u1")).contains(new Balance(5 * USD, 5 * USD));
        // A request holding nothing yet gets a hold the same way.
        store.release("r2");
        assertThat(store.raise(hold("r9", "u1", 2 * USD)).held()).isTrue();
        assertThat(store.balance("u1")).contains(new Balance(5 * USD, 5 * USD));
    }

    @Test
    void sweepersOfSeveralInstancesAtOnceReleaseEachExpiredHoldOnce() throws Exception {
        user("u1", 50 * USD);
        for (int i = 0; i < 40; i++) {
            store.reserve(new Hold("h" + i, "u1", "key_1", USD / 10, T0.plusSeconds(10), T0));
        }
        // every gateway instance runs its own sweeper, each with its own store object, on the one database
        List<Callable<Integer>> sweepers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            JdbcBalanceStore instance = new JdbcBalanceStore(database);
            sweepers.add(() -> instance.releaseExpired(T0.plusSeconds(10), 7));
        }

        int total = concurrently(4, sweepers).stream().mapToInt(Integer::intValue).sum();

        // batches of 7 may stop short of all 40; what is left is released by the next rounds, never twice
        total += store.releaseExpired(T0.plusSeconds(10), 100);
        assertThat(total).isEqualTo(40);
        assertThat(store.openHolds()).isZero();
        assertThat(store.balance("u1")).contains(new Balance(50 * USD, 0));
    }

    @Test
    void releaseFreesTheHoldOnceAndTheSweeperOnlyExpiredOnes() {
        user("u1", 5 * USD);
        store.reserve(new Hold("old", "u1", "key_1", USD, T0.plusSeconds(10), T0));
        store.reserve(new Hold("new", "u1", "key_1", USD, T0.plusSeconds(100), T0));
        store.reserve(new Hold("done", "u1", "key_1", USD, T0.plusSeconds(100), T0));

        assertThat(store.release("done")).isTrue();
        assertThat(store.release("done")).isFalse();
        assertThat(store.releaseExpired(T0.plusSeconds(10), 100)).isEqualTo(1);
        assertThat(store.releaseExpired(T0.plusSeconds(10), 100)).isZero();
        assertThat(store.balance("u1")).contains(new Balance(5 * USD, USD));
        // A request that settles after the sweeper released its hold is still charged, once.
        assertThat(store.settle(record("old", "u1", USD, USD, "m1", T0)).chargedNanos()).isEqualTo(USD);
        assertThat(store.balance("u1")).contains(new Balance(4 * USD, USD));
    }

    @Test
    void usageIsFilteredPagedAndSummedByDayModelAndKey() {
        user("u1", 100 * USD);
        user("u2", 100 * USD);
        Instant day1 = Instant.parse("2026-11-01T23:59:59.999Z");
        Instant day2 = Instant.parse("2026-11-02T00:00:00Z");
        store.settle(record("a", "u1", 100, 100, "m1", day1));
        store.settle(record("b", "u1", 200, 200, "m2", day2));
        store.settle(record("c", "u1", 300, 300, "m1", day2.plusSeconds(5)));
        store.settle(record("d", "u2", 400, 400, "m1", day2));

        UsageQuery u1 = new UsageQuery(Optional.of("u1"), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                0, 10);
        assertThat(store.usage(u1)).extracting(UsageRecord::requestId).containsExactly("c", "b", "a");
        assertThat(store.usage(new UsageQuery(Optional.of("u1"), Optional.empty(), Optional.of("m1"), Optional.of(day2),
                Optional.empty(), 0, 10))).extracting(UsageRecord::requestId).containsExactly("c");
        assertThat(store.usage(new UsageQuery(Optional.of("u1"), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.of(day2), 0, 10))).extracting(UsageRecord::requestId).containsExactly("a");
        assertThat(store.usage(new UsageQuery(Optional.of("u1"), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), 1, 1))).extracting(UsageRecord::requestId).containsExactly("b");

        assertThat(store.totals(u1, UsageTotal.GroupBy.DAY)).extracting(UsageTotal::group, UsageTotal::requests, UsageTotal::costNanos)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("2026-11-01", 1L, 100L),
                        org.assertj.core.groups.Tuple.tuple("2026-11-02", 2L, 500L));
        assertThat(store.totals(u1, UsageTotal.GroupBy.MODEL)).extracting(UsageTotal::group, UsageTotal::costNanos)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("m1", 400L), org.assertj.core.groups.Tuple.tuple("m2", 200L));
        assertThat(store.totals(u1, UsageTotal.GroupBy.KEY)).extracting(UsageTotal::group, UsageTotal::inputTokens)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("key_1", 3000L));
        UsageTotal all = store.total(new UsageQuery(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), 0, 1));
        assertThat(all.requests()).isEqualTo(4);
        assertThat(all.chargedNanos()).isEqualTo(1000);
        UsageTotal none = store.total(new UsageQuery(Optional.of("nobody"), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), 0, 1));
        assertThat(none).isEqualTo(new UsageTotal("total", 0, 0, 0, 0, 0, 0, 0, 0));
    }

    @Test
    void aCreditRepeatedWithTheSameIdempotencyKeyIsWrittenOnce() throws Exception {
        user("u1", 0);

        LedgerEntry first = accounts.addCredit("u1", 5 * USD, Optional.empty(), Optional.of("topup-1"), T0);
        LedgerEntry again = accounts.addCredit("u1", 5 * USD, Optional.empty(), Optional.of("topup-1"), T0);
        concurrently(8, Collections.nCopies(8,
                (Callable<LedgerEntry>) () -> accounts.addCredit("u1", 2 * USD, Optional.empty(), Optional.of("topup-2"), T0)));

        assertThat(again.id()).isEqualTo(first.id());
        assertThat(store.balance("u1").orElseThrow().balanceNanos()).isEqualTo(7 * USD);
        assertThat(accounts.ledger("u1", 10)).hasSize(2);
        assertThatThrownBy(() -> accounts.addCredit("u1", 6 * USD, Optional.empty(), Optional.of("topup-1"), T0))
                .isInstanceOfSatisfying(AccountException.class, e -> assertThat(e.field()).contains("idempotency_key"));
        // The same key for another user is another credit.
        user("u2", 0);
        accounts.addCredit("u2", 5 * USD, Optional.empty(), Optional.of("topup-1"), T0);
        assertThat(store.balance("u2").orElseThrow().balanceNanos()).isEqualTo(5 * USD);
    }

    @Test
    void aPlanWithAnExpiryIsStoredAndReadBack() {
        user("u1", 0);
        Instant end = Instant.parse("2027-01-01T00:00:00Z");

        assertThat(accounts.setPlan("u1", "pro", Optional.of(end))).isTrue();
        assertThat(accounts.findUser("u1").orElseThrow().planExpiresAt()).contains(end);
        assertThat(accounts.findUser("u1").orElseThrow().activePlan(end.minusMillis(1))).isEqualTo("pro");
        assertThat(accounts.findUser("u1").orElseThrow().activePlan(end)).isEqualTo(User.PAYG);
        assertThat(accounts.setPlan("u1", "team", Optional.empty())).isTrue();
        assertThat(accounts.findUser("u1").orElseThrow().planExpiresAt()).isEmpty();
        assertThat(accounts.setPlan("nobody", "pro", Optional.empty())).isFalse();
    }
}
