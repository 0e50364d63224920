package dev.switchboard.engine.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.engine.account.KeyLimits;
import dev.switchboard.engine.account.MutableClock;
import dev.switchboard.engine.catalog.Capabilities;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.Pricing;
import dev.switchboard.engine.catalog.ReasoningProfile;
import dev.switchboard.engine.catalog.RouteTarget;
import dev.switchboard.engine.metrics.GatewayMetrics;
import dev.switchboard.engine.pipeline.AdmissionRequest;
import dev.switchboard.engine.pipeline.Admitted;
import dev.switchboard.engine.pipeline.Caller;
import dev.switchboard.engine.pipeline.RequestOutcome;
import dev.switchboard.engine.route.Candidate;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.Message;
import dev.switchboard.model.RateLimitStatus;
import dev.switchboard.model.Usage;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * Admission by limits: which limits a caller is checked against, the 429 that names the limit and when it has room
 * again, the estimate token limits reserve, and settlement correcting it.
 */
class LimitAdmissionTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-03-02T10:00:00Z"));
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final GatewayMetrics metrics = new GatewayMetrics(registry);
    private final InMemoryLimitStore store = new InMemoryLimitStore(clock);
    private PlanQuota.Lookup plans = PlanQuota.Lookup.NONE;
    private final LimitAdmission admission = new LimitAdmission(store, plan -> plans.of(plan), metrics, clock);
    private final LimitSettlement settlement = new LimitSettlement(store);
    private int ids;

    private static final ModelEntry MODEL = new ModelEntry("m", List.of(), Optional.empty(), "t", 100_000, 1000,
            Capabilities.TEXT_ONLY, ReasoningProfile.NONE, Pricing.FREE, List.of(), List.of(new RouteTarget("p", "u")));

    private static Caller caller(KeyLimits limits) {
        return new Caller("usr_1", "key_1", "pro", List.of(), List.of(), limits);
    }

    private static KeyLimits rpm(long n) {
        return KeyLimits.NONE.withRpm(OptionalLong.of(n));
    }

    private AdmissionRequest request(Caller caller, OptionalInt maxTokens, AdmissionRequest.Purpose purpose) {
        ChatRequest r = ChatRequest.builder("m").addMessage(Message.user("x".repeat(400))).maxTokens(maxTokens).build();
        return new AdmissionRequest(caller, "req_" + ids++, "chat_completions", purpose, false,
                List.of(new Candidate(MODEL, r, List.of())));
    }

    private AdmissionRequest request(Caller caller) {
        return request(caller, OptionalInt.of(50), AdmissionRequest.Purpose.GENERATE);
    }

    private RequestOutcome outcome(AdmissionRequest r, boolean answered, Usage usage) {
        Optional<RequestOutcome.Answered> who = answered
                ? Optional.of(new RequestOutcome.Answered(r.requested(), MODEL.route().getFirst())) : Optional.empty();
        return new RequestOutcome(r.caller(), r.requestId(), r.endpoint(), r.purpose(), "m", false,
                answered ? RequestOutcome.Ending.COMPLETED : RequestOutcome.Ending.FAILED, who, usage, Duration.ZERO);
    }

    @Test
    void aCallerWithoutLimitsHoldsNothing() {
        assertThat(admission.admit(request(caller(KeyLimits.NONE)))).isSameAs(Admitted.NOTHING_HELD);
    }

    @Test
    void theSixthRequestOfAKeyAtRpmFiveIsRefusedNamingTheLimitAndTheWait() {
        Caller c = caller(rpm(5));
        for (int i = 0; i < 5; i++) {
            Admitted a = admission.admit(request(c));
            assertThat(a.rateLimits().orElseThrow().requests().orElseThrow().remaining()).isEqualTo(4 - i);
            clock.advance(Duration.ofSeconds(1));
        }

        assertThatThrownBy(() -> admission.admit(request(c))).isInstanceOfSatisfying(GatewayException.class, e -> {
            assertThat(e.error().status()).isEqualTo(429);
            assertThat(e.error().type()).isEqualTo("rate_limit_error");
            assertThat(e.error().message()).contains("the key's rpm (5 requests per minute)", "2026-03-02T10:01:00Z",
                    "in 55 s");
            assertThat(e.retryAfter()).contains(Duration.ofSeconds(55));
            RateLimitStatus.Window w = e.rateLimits().orElseThrow().requests().orElseThrow();
            assertThat(w.limit()).isEqualTo(5);
            assertThat(w.remaining()).isZero();
        });
        assertThat(registry.get("switchboard_limit_refusals").tag("limit", "rpm").counter().count()).isEqualTo(1);
    }

    @Test
    void tokenLimitsReserveTheInputEstimatePlusMaxTokensAndSettleToTheActualCount() {
        Caller c = caller(KeyLimits.NONE.withDailyTokens(OptionalLong.of(400)));
        AdmissionRequest first = request(c);
        Admitted a = admission.admit(first);
        // 400 characters are about 100 tokens; with max_tokens 50 the request may use 150
        assertThat(a.rateLimits().orElseThrow().tokens().orElseThrow().remaining()).isEqualTo(250);
        admission.admit(request(c));
        assertThatThrownBy(() -> admission.admit(request(c))).isInstanceOfSatisfying(GatewayException.class, e ->
                assertThat(e.error().message()).contains("the key's daily token cap (400 tokens per UTC day)",
                        "has 100 tokens left", "may use up to 150", "2026-03-03T00:00:00Z"));

        settlement.settle(a, outcome(first, true, Usage.of(6, 4)));

        // 10 used + 150 still reserved + 150 for this one
        assertThat(admission.admit(request(c)).rateLimits().orElseThrow().tokens().orElseThrow().remaining()).isEqualTo(90);
    }

    @Test
    void aFailedRequestDoesNotConsumeTokens() {
        Caller c = caller(KeyLimits.NONE.withDailyTokens(OptionalLong.of(150)));
        AdmissionRequest r = request(c);
        Admitted a = admission.admit(r);

        settlement.settle(a, outcome(r, false, Usage.EMPTY));

        assertThat(admission.admit(request(c)).rateLimits().orElseThrow().tokens().orElseThrow().remaining()).isZero();
    }

    @Test
    void aRequestLargerThanTheWholeCapSaysToLowerMaxTokensWithoutARetryTime() {
        Caller c = caller(KeyLimits.NONE.withTpm(OptionalLong.of(120)));
        assertThatThrownBy(() -> admission.admit(request(c))).isInstanceOfSatisfying(GatewayException.class, e -> {
            assertThat(e.error().message()).contains("up to 150 tokens", "more than the key's tpm (120 tokens per minute)",
                    "Lower max_tokens");
            assertThat(e.retryAfter()).isEmpty();
        });
    }

    @Test
    void aTokenCountTakesARequestSlotButNoTokens() {
        Caller c = caller(rpm(2).withDailyTokens(OptionalLong.of(10)));
        Admitted a = admission.admit(request(c, OptionalInt.empty(), AdmissionRequest.Purpose.COUNT_TOKENS));
        assertThat(a.rateLimits().orElseThrow().tokens().orElseThrow().remaining()).isEqualTo(10);
        assertThat(a.rateLimits().orElseThrow().requests().orElseThrow().remaining()).isEqualTo(1);
    }

    @Test
    void withoutMaxTokensTheModelsLargestOutputIsReserved() {
        Caller c = caller(KeyLimits.NONE.withDailyTokens(OptionalLong.of(5000)));
        Admitted a = admission.admit(request(c, OptionalInt.empty(), AdmissionRequest.Purpose.GENERATE));
        assertThat(a.rateLimits().orElseThrow().tokens().orElseThrow().remaining()).isEqualTo(5000 - 100 - 1000);
    }

    @Test
    void thePlansLimitsCountPerUserAcrossKeys() {
        plans = plan -> plan.equals("pro") ? new PlanQuota(OptionalLong.of(2), OptionalLong.empty()) : PlanQuota.NONE;
        Caller keyA = new Caller("usr_1", "key_a", "pro", List.of(), List.of(), KeyLimits.NONE);
        Caller keyB = new Caller("usr_1", "key_b", "pro", List.of(), List.of(), KeyLimits.NONE);
        Caller otherUser = new Caller("usr_2", "key_c", "pro", List.of(), List.of(), KeyLimits.NONE);
        admission.admit(request(keyA));
        admission.admit(request(keyB));

        assertThatThrownBy(() -> admission.admit(request(keyA))).isInstanceOfSatisfying(GatewayException.class, e ->
                assertThat(e.error().message()).contains("the pro plan's rpm (2 requests per minute)"));
        admission.admit(request(otherUser));
    }

    @Test
    void theLimitThatKeepsTheRequestWaitingLongestIsTheOneNamed() {
        Caller c = caller(rpm(1).withDailyTokens(OptionalLong.of(150)));
        admission.admit(request(c));

        assertThatThrownBy(() -> admission.admit(request(c))).isInstanceOfSatisfying(GatewayException.class, e -> {
            assertThat(e.error().message()).contains("daily token cap");
            assertThat(e.retryAfter()).contains(Duration.ofHours(14));
        });
    }

    @Test
    void underTheDenyPolicyAnUnreachableStoreIsA503() {
        LimitStore broken = new LimitStore() {
            @Override
            public LimitCheck reserve(String requestId, List<Limit> limits, long tokens) {
                throw new LimitStoreException("connection refused", null);
            }

            @Override
            public java.util.concurrent.CompletionStage<Void> settle(LimitHold hold, long actualTokens) {
                throw new LimitStoreException("connection refused", null);
            }

            @Override
            public java.util.concurrent.CompletionStage<Void> release(LimitHold hold) {
                throw new LimitStoreException("connection refused", null);
            }
        };
        LimitAdmission deny = new LimitAdmission(new GuardedLimitStore(broken, OnStoreFailure.DENY, metrics),
                PlanQuota.Lookup.NONE, metrics, clock);
        assertThatThrownBy(() -> deny.admit(request(caller(rpm(1))))).isInstanceOfSatisfying(GatewayException.class, e -> {
            assertThat(e.error().status()).isEqualTo(503);
            assertThat(e.retryAfter()).contains(Duration.ofSeconds(1));
        });

        GuardedLimitStore allowing = new GuardedLimitStore(broken, OnStoreFailure.ALLOW, metrics);
        LimitAdmission allow = new LimitAdmission(allowing, PlanQuota.Lookup.NONE, metrics, clock);
        AdmissionRequest r = request(caller(rpm(1)));
        Admitted a = allow.admit(r);
        assertThat(a.rateLimits()).isEmpty();
        new LimitSettlement(allowing).settle(a, outcome(r, true, Usage.of(1, 1)));
        assertThat(registry.get("switchboard_limit_store_failures").tag("policy", "allow").counter().count()).isEqualTo(1);
        assertThat(registry.get("switchboard_limit_store_failures").tag("policy", "deny").counter().count()).isEqualTo(1);
    }

    @Test
    void aSettlementThatFailsAfterItWasSentIsCountedLikeAnyOtherStoreFailure() {
        InMemoryLimitStore counters = new InMemoryLimitStore(clock);
        LimitStore late = new LimitStore() {
            @Override
            public LimitCheck reserve(String requestId, List<Limit> limits, long tokens) {
                return counters.reserve(requestId, limits, tokens);
            }

            @Override
            public java.util.concurrent.CompletionStage<Void> settle(LimitHold hold, long actualTokens) {
                return java.util.concurrent.CompletableFuture.failedFuture(new LimitStoreException("reset by peer", null));
            }

            @Override
            public java.util.concurrent.CompletionStage<Void> release(LimitHold hold) {
                return java.util.concurrent.CompletableFuture.failedFuture(new IllegalStateException("closed"));
            }
        };
        GuardedLimitStore guarded = new GuardedLimitStore(late, OnStoreFailure.ALLOW, metrics);
        LimitAdmission limits = new LimitAdmission(guarded, PlanQuota.Lookup.NONE, metrics, clock);
        AdmissionRequest r = request(caller(KeyLimits.NONE.withMaxParallel(OptionalLong.of(2))));
        Admitted a = limits.admit(r);

        new LimitSettlement(guarded).settle(a, outcome(r, true, Usage.of(1, 1)));
        a.release();

        assertThat(registry.get("switchboard_limit_store_failures").tag("policy", "allow").counter().count()).isEqualTo(2);
    }
}
