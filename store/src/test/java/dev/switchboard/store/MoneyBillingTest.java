package dev.switchboard.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.engine.account.LedgerEntry;
import dev.switchboard.engine.account.User;
import dev.switchboard.engine.billing.Balance;
import dev.switchboard.engine.billing.BalanceStore;
import dev.switchboard.engine.billing.MoneyAdmission;
import dev.switchboard.engine.billing.MoneyHold;
import dev.switchboard.engine.billing.MoneySettlement;
import dev.switchboard.engine.catalog.Capabilities;
import dev.switchboard.engine.catalog.Cost;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.Plan;
import dev.switchboard.engine.catalog.Plans;
import dev.switchboard.engine.catalog.Pricing;
import dev.switchboard.engine.catalog.ReasoningProfile;
import dev.switchboard.engine.catalog.ResponsesRequirement;
import dev.switchboard.engine.catalog.RouteTarget;
import dev.switchboard.engine.pipeline.AdmissionRequest;
import dev.switchboard.engine.pipeline.Admitted;
import dev.switchboard.engine.pipeline.Caller;
import dev.switchboard.engine.pipeline.RequestOutcome;
import dev.switchboard.engine.route.Candidate;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.Message;
import dev.switchboard.model.Usage;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Money's admission and settlement over the real store (SQLite): what is reserved, what a 402 says, plans,
 * fallbacks raising or skipped, and what each ending is charged.
 */
class MoneyBillingTest extends StoreContract {
    private static final long USD = 1_000_000_000L;
    private static final Clock CLOCK = Clock.fixed(T0, ZoneOffset.UTC);

    @TempDir
    Path dir;

    private JdbcAccountStore accounts;
    private JdbcBalanceStore store;
    private final ModelEntry cheap = model("cheap", 1, 2, List.of(), true);   // $1 in, $2 out per million
    private final ModelEntry pricey = model("pricey", 10, 100, List.of(), true);
    private final ModelEntry planOnly = model("plan-only", 10, 100, List.of("pro"), false);
    private final ModelEntry teamOnly = model("team-only", 10, 100, List.of("team"), false);
    private final Plans plans = new Plans(List.of(Plan.of("pro", List.of("cheap")), Plan.of("team", List.of())));
    private MoneyAdmission admission;
    private MoneySettlement settlement;

    @Override
    protected TestDatabase createDatabase() {
        return TestDatabase.sqlite(dir.resolve("switchboard.db"));
    }

    @BeforeEach
    void stores() {
        accounts = new JdbcAccountStore(database);
        store = new JdbcBalanceStore(database);
        admission = new MoneyAdmission(plans, store, CLOCK, Duration.ofMinutes(10));
        settlement = new MoneySettlement(plans, store, CLOCK);
        accounts.createUser(new User("u1", "u1", Optional.empty(), "payg", 0, T0), Optional.empty());
    }

    private static ModelEntry model(String id, long inUsd, long outUsd, List<String> plans, boolean payg) {
        return new ModelEntry(id, List.of(), Optional.empty(), "t", 100_000, 8000, Capabilities.TEXT_ONLY, ReasoningProfile.NONE,
                new Pricing(inUsd * USD, outUsd * USD, inUsd * USD / 10, inUsd * USD, inUsd * USD), plans,
                List.of(new RouteTarget("p", id)), Set.of(), ResponsesRequirement.NOT_NEEDED, Optional.empty(), payg);
    }

    private static Candidate candidate(ModelEntry m, int maxTokens) {
        return new Candidate(m, ChatRequest.builder(m.id()).addMessage(Message.user("x".repeat(400))).maxTokens(maxTokens).build());
    }

    private static AdmissionRequest request(String id, String plan, Candidate... candidates) {
        return new AdmissionRequest(new Caller("u1", "key_1", plan, List.of(), List.of()), id, "chat_completions",
                AdmissionRequest.Purpose.GENERATE, false, List.of(candidates));
    }

    private static RequestOutcome answered(AdmissionRequest r, Candidate by, RequestOutcome.Ending ending, Usage usage) {
        return new RequestOutcome(r.caller(), r.requestId(), r.endpoint(), r.purpose(), r.requested().modelId(), r.streamed(),
                ending, Optional.of(new RequestOutcome.Answered(by, by.model().route().getFirst())), usage, Duration.ofMillis(5));
    }

    private void credit(long nanos) {
        accounts.addCredit("u1", nanos, Optional.empty(), T0);
    }

    /** A request admitted to pay as it goes, with the candidate that answers it. */
    private record Paying(AdmissionRequest request, Candidate candidate, Admitted admitted) {
        RequestOutcome answered(RequestOutcome.Ending ending, Usage usage) {
            return MoneyBillingTest.answered(request, candidate, ending, usage);
        }
    }

    /** Request r1 of u1, credited $1 first, for {@code pricey} with up to 1000 output tokens: admitted. */
    private Paying creditedAndAdmitted() {
        credit(USD);
        Candidate c = candidate(pricey, 1000);
        AdmissionRequest r = request("r1", "payg", c);
        return new Paying(r, c, admission.admit(r));
    }

    /** u1 has one charge, for {@code used} on {@code pricey}, and its $1 less that cost. */
    private void assertChargedOnceFor(Usage used) {
        assertThat(store.balance("u1")).contains(new Balance(USD - Cost.of(pricey.pricing(), used), 0));
        assertThat(accounts.ledger("u1", 5)).filteredOn(e -> e.kind() == LedgerEntry.Kind.CHARGE).hasSize(1);
    }

    @Test
    void payAsYouGoReservesThePromptEstimateAndEveryOutputTokenAtTheirPricesThenChargesTheActualCost() {
        Paying paying = creditedAndAdmitted();
        Admitted admitted = paying.admitted();

        // ~100 prompt tokens at $10/M + 1000 output tokens at $100/M.
        long worst = Cost.ofTokens(100, 10 * USD) + Cost.ofTokens(1000, 100 * USD);
        assertThat(((MoneyHold) admitted).heldNanos()).isEqualTo(worst);
        assertThat(store.balance("u1")).contains(new Balance(USD, worst));

        Usage used = Usage.of(120, 30);
        settlement.settle(admitted, paying.answered(RequestOutcome.Ending.COMPLETED, used));

        long cost = Cost.of(pricey.pricing(), used);
        assertThat(store.balance("u1")).contains(new Balance(USD - cost, 0));
        assertThat(store.usage("r1").orElseThrow().costNanos()).isEqualTo(cost);
        assertThat(accounts.ledger("u1", 5)).filteredOn(e -> e.kind() == LedgerEntry.Kind.CHARGE)
                .singleElement().satisfies(e -> assertThat(e.amountNanos()).isEqualTo(-cost));
    }

    @Test
    void whenTheBalanceCannotCoverTheWorstCaseThe402SaysWhatTheRequestNeedsAndWhatTheBalanceAffords() {
        credit(50_000_000L); // 5 cents: 100 prompt tokens cost 0.1 cent, the rest covers 490 output tokens at $100/M
        AdmissionRequest r = request("r1", "payg", candidate(pricey, 8000));

        assertThatThrownBy(() -> admission.admit(r)).isInstanceOfSatisfying(GatewayException.class, e -> {
            assertThat(e.error().status()).isEqualTo(402);
            assertThat(e.error().type()).isEqualTo("insufficient_quota");
            assertThat(e.error().message()).contains("requested up to 8000 output tokens; the balance covers 490")
                    .contains("Lower max_tokens or add credit");
        });
        assertThat(store.balance("u1")).contains(new Balance(50_000_000L, 0));
        assertThat(store.openHolds()).isZero();
    }

    @Test
    void aModelTheActivePlanCoversIsAdmittedWithNothingHeldAndRecordedAtZeroCharge() {
        Candidate c = candidate(cheap, 8000);
        AdmissionRequest r = request("r1", "pro", c);

        Admitted admitted = admission.admit(r);
        settlement.settle(admitted, answered(r, c, RequestOutcome.Ending.COMPLETED, Usage.of(1000, 1000)));

        assertThat(store.balance("u1")).contains(new Balance(0, 0));
        assertThat(store.usage("r1")).hasValueSatisfying(u -> {
            assertThat(u.costNanos()).isEqualTo(Cost.of(cheap.pricing(), Usage.of(1000, 1000)));
            assertThat(u.chargedNanos()).isZero();
            assertThat(u.plan()).contains("pro");
        });
        assertThat(accounts.ledger("u1", 5)).isEmpty();
    }

    @Test
    void aPlanOnlyModelNeedsASubscriptionFromAUserWithoutOne() {
        credit(100 * USD);

        assertThatThrownBy(() -> admission.admit(request("r1", "payg", candidate(planOnly, 10))))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.error().status()).isEqualTo(402);
                    assertThat(e.error().message()).contains("needs an active subscription").contains("pro");
                });
        assertThatThrownBy(() -> admission.admit(request("r2", "team", candidate(planOnly, 10))))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.error().status()).isEqualTo(403);
                    assertThat(e.error().type()).isEqualTo("model_access_denied");
                });
        assertThat(admission.admit(request("r3", "pro", candidate(planOnly, 10)))).isInstanceOf(MoneyHold.class);
    }

    @Test
    void aPricierFallbackRaisesTheHoldFirstAndIsSkippedWhenTheBalanceCannotCoverIt() {
        credit(200_000_000L); // 20 cents
        Candidate first = candidate(cheap, 8000);
        Candidate dear = candidate(pricey, 1000);   // ~10.1 cents
        Candidate dearer = candidate(pricey, 8000); // ~80 cents
        AdmissionRequest r = request("r1", "payg", first, dear, dearer);

        MoneyHold hold = (MoneyHold) admission.admit(r);
        long firstWorst = hold.heldNanos();

        assertThat(hold.refusal(first)).isEmpty();
        assertThat(hold.refusal(dear)).isEmpty();
        assertThat(hold.heldNanos()).isGreaterThan(firstWorst);
        assertThat(store.balance("u1").orElseThrow().heldNanos()).isEqualTo(hold.heldNanos());
        assertThat(hold.refusal(dearer)).hasValueSatisfying(why -> assertThat(why).startsWith("unaffordable"));
        assertThat(store.balance("u1").orElseThrow().heldNanos()).as("the failed raise holds nothing more")
                .isEqualTo(hold.heldNanos());
        assertThat(hold.refusal(candidate(teamOnly, 10))).hasValueSatisfying(why -> assertThat(why).contains("plan"));

        // The fallback answered: billed at its prices, not the requested model's.
        Usage used = Usage.of(100, 500);
        settlement.settle(hold, answered(r, dear, RequestOutcome.Ending.COMPLETED, used));
        assertThat(store.usage("r1").orElseThrow().model()).isEqualTo("pricey");
        assertThat(store.balance("u1")).contains(new Balance(200_000_000L - Cost.of(pricey.pricing(), used), 0));
    }

    @Test
    void failedRequestsAndTokenCountsAreNeverCharged() {
        credit(USD);
        AdmissionRequest r = request("r1", "payg", candidate(pricey, 1000));
        Admitted admitted = admission.admit(r);

        settlement.settle(admitted, new RequestOutcome(r.caller(), "r1", r.endpoint(), r.purpose(), "pricey", false,
                RequestOutcome.Ending.FAILED, Optional.empty(), Usage.EMPTY, Duration.ZERO));

        AdmissionRequest count = new AdmissionRequest(r.caller(), "r2", "messages_count_tokens",
                AdmissionRequest.Purpose.COUNT_TOKENS, false, List.of(candidate(pricey, 1000)));
        Admitted counted = admission.admit(count);
        settlement.settle(counted, new RequestOutcome(r.caller(), "r2", count.endpoint(), count.purpose(), "pricey", false,
                RequestOutcome.Ending.COUNTED, Optional.empty(), Usage.EMPTY, Duration.ZERO));

        assertThat(counted).isSameAs(Admitted.NOTHING_HELD);
        assertThat(store.balance("u1")).contains(new Balance(USD, 0));
        assertThat(store.usage("r1")).isEmpty();
        assertThat(accounts.ledger("u1", 5)).extracting(LedgerEntry::kind).containsOnly(LedgerEntry.Kind.CREDIT);
    }

    @Test
    void aCutStreamIsBilledOnceForTheEstimatedUsageItCarries() {
        Paying paying = creditedAndAdmitted();
        Usage delivered = new Usage(100, 40, 0, 0, 0, 0, Usage.Provenance.ESTIMATED);

        settlement.settle(paying.admitted(), paying.answered(RequestOutcome.Ending.CLIENT_GONE, delivered));
        settlement.settle(paying.admitted(), paying.answered(RequestOutcome.Ending.CLIENT_GONE, delivered));

        assertThat(store.usage("r1")).hasValueSatisfying(u -> {
            assertThat(u.usage().provenance()).isEqualTo(Usage.Provenance.ESTIMATED);
            assertThat(u.status()).isEqualTo("CLIENT_GONE");
        });
        assertChargedOnceFor(delivered);
    }

    @Test
    void aSettlementTheStoreFailsIsTriedAgainAndChargedOnce() {
        Paying paying = creditedAndAdmitted();
        int[] settles = {0};
        BalanceStore failingTwice = failing(store, "settle", 2, settles);
        MoneySettlement retrying = new MoneySettlement(plans, failingTwice, CLOCK, Duration.ofSeconds(30));
        Usage used = Usage.of(120, 30);

        retrying.settle(paying.admitted(), paying.answered(RequestOutcome.Ending.COMPLETED, used));

        assertThat(settles[0]).isEqualTo(3);
        assertChargedOnceFor(used);
    }

    @Test
    void aSettlementTheStoreKeepsFailingGivesUpAfterItsBudgetAndLeavesTheHoldForTheSweeper() {
        Paying paying = creditedAndAdmitted();
        int[] settles = {0};
        MoneySettlement retrying = new MoneySettlement(plans, failing(store, "settle", Integer.MAX_VALUE, settles), CLOCK,
                Duration.ofMillis(200));

        assertThatThrownBy(() -> retrying.settle(paying.admitted(), paying.answered(RequestOutcome.Ending.COMPLETED, Usage.of(120, 30))))
                .isInstanceOf(StoreException.class);

        assertThat(settles[0]).isGreaterThan(1);
        assertThat(store.openHolds()).isEqualTo(1);
    }

    /** {@code store}, whose first {@code failures} calls of {@code method} throw as a busy database does. */
    private static BalanceStore failing(BalanceStore store, String method, int failures, int[] calls) {
        return (BalanceStore) java.lang.reflect.Proxy.newProxyInstance(BalanceStore.class.getClassLoader(),
                new Class<?>[] {BalanceStore.class}, (proxy, m, args) -> {
                    if (m.getName().equals(method) && calls[0]++ < failures) {
                        throw new StoreException("settle request failed: the SQLite database is busy",
                                new java.sql.SQLTransientConnectionException("busy"));
                    }
                    try {
                        return m.invoke(store, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void anExpiredPlanIsPayAsYouGo() {
        User u = new User("x", "x", Optional.empty(), "pro", 0, T0, Optional.of(Instant.parse("2026-01-01T00:00:00Z")));
        assertThat(u.activePlan(T0)).isEqualTo(Plans.PAYG);
        assertThat(plans.access(u.activePlan(T0), planOnly)).isEqualTo(Plans.Access.NEEDS_SUBSCRIPTION);
        assertThat(plans.access(u.activePlan(Instant.parse("2025-12-31T00:00:00Z")), planOnly)).isEqualTo(Plans.Access.COVERED);
    }
}
