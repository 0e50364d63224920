package dev.switchboard.engine.route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.engine.catalog.Capabilities;
import dev.switchboard.engine.catalog.Catalog;
import dev.switchboard.engine.catalog.Ejection;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.Pricing;
import dev.switchboard.engine.catalog.ProviderConfig;
import dev.switchboard.engine.catalog.ProviderType;
import dev.switchboard.engine.catalog.ReasoningProfile;
import dev.switchboard.engine.catalog.RouteTarget;
import dev.switchboard.engine.catalog.Timeouts;
import dev.switchboard.engine.media.FetchLimits;
import dev.switchboard.engine.media.ImageFetcher;
import dev.switchboard.engine.media.ImageInliner;
import dev.switchboard.engine.metrics.GatewayMetrics;
import dev.switchboard.engine.provider.Attempt;
import dev.switchboard.engine.provider.EventSource;
import dev.switchboard.engine.provider.ProviderAdapter;
import dev.switchboard.engine.upstream.UpstreamFailure;
import dev.switchboard.model.ChatRequest;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.Message;
import dev.switchboard.model.StopReason;
import dev.switchboard.model.Usage;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The provider breaker (outlier ejection) alone, and in the failover loop: retry load stays bounded. */
class ProviderBreakerTest {
    private static final Duration COOLDOWN = Duration.ofSeconds(10);
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private static final Ejection POLICY = new Ejection(3, COOLDOWN);
    private final ProviderBreaker breaker = new ProviderBreaker(now::get);

    private static UpstreamFailure status(int s) {
        return UpstreamFailure.http(s, new GatewayError(s, "x", "upstream said " + s, Optional.empty(), false), Optional.empty());
    }

    private static final UpstreamFailure RESET = UpstreamFailure.of(UpstreamFailure.Kind.RESET, "reset");

    private void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }

    @Test
    void opensAfterTheRunOfFailuresProbesOncePerCooldownAndClosesOnSuccess() {
        assertThat(breaker.failed("p", POLICY, RESET)).isEqualTo(ProviderBreaker.Transition.NONE);
        assertThat(breaker.failed("p", POLICY, status(503))).isEqualTo(ProviderBreaker.Transition.NONE);
        assertThat(breaker.admit("p", POLICY)).isEqualTo(ProviderBreaker.Verdict.PASS);
        assertThat(breaker.failed("p", POLICY, status(500))).isEqualTo(ProviderBreaker.Transition.OPENED);
        assertThat(breaker.admit("p", POLICY)).isEqualTo(ProviderBreaker.Verdict.EJECTED);
        assertThat(breaker.admit("other", POLICY)).isEqualTo(ProviderBreaker.Verdict.PASS);

        advance(COOLDOWN);
        assertThat(breaker.admit("p", POLICY)).isEqualTo(ProviderBreaker.Verdict.PROBE);
        // one probe per cool-down: everyone else is still skipped while it runs
        assertThat(breaker.admit("p", POLICY)).isEqualTo(ProviderBreaker.Verdict.EJECTED);
        assertThat(breaker.failed("p", POLICY, RESET)).isEqualTo(ProviderBreaker.Transition.NONE);
        assertThat(breaker.admit("p", POLICY)).isEqualTo(ProviderBreaker.Verdict.EJECTED);

        advance(COOLDOWN);
        assertThat(breaker.admit("p", POLICY)).isEqualTo(ProviderBreaker.Verdict.PROBE);
        assertThat(breaker.succeeded("p", POLICY)).isEqualTo(ProviderBreaker.Transition.CLOSED);
        assertThat(breaker.admit("p", POLICY)).isEqualTo(ProviderBreaker.Verdict.PASS);
        assertThat(breaker.isOpen("p")).isFalse();
    }

    @Test
    void aSuccessBreaksTheRunAndRateLimitsOrCallerErrorsAreNoOutage() {
        breaker.failed("p", POLICY, RESET);
        breaker.failed("p", POLICY, RESET);
        breaker.succeeded("p", POLICY);
        breaker.failed("p", POLICY, RESET);
        breaker.failed("p", POLICY, status(429));
        breaker.failed("p", POLICY, status(400));
        breaker.failed("p", POLICY, RESET);
        breaker.failed("p", POLICY, RESET);
        assertThat(breaker.admit("p", POLICY)).isEqualTo(ProviderBreaker.Verdict.PASS);
    }

    @Test
    void aProbeThatNeverReportsIsReplacedAfterAnotherCooldown() {
        for (int i = 0; i < 3; i++) {
            breaker.failed("p", POLICY, RESET);
        }
        advance(COOLDOWN);
        assertThat(breaker.admit("p", POLICY)).isEqualTo(ProviderBreaker.Verdict.PROBE);
        advance(COOLDOWN.minusMillis(1));
        assertThat(breaker.admit("p", POLICY)).isEqualTo(ProviderBreaker.Verdict.EJECTED);
        advance(Duration.ofMillis(1));
        assertThat(breaker.admit("p", POLICY)).isEqualTo(ProviderBreaker.Verdict.PROBE);
    }

    // --- in the failover loop ---

    private final Set<String> down = ConcurrentHashMap.newKeySet();
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private Random faults = new Random(1);
    private double faultRate;

    private final ProviderAdapter adapter = new ProviderAdapter() {
        @Override
        public ChatResponse complete(Attempt a) {
            calls.computeIfAbsent(a.provider().id(), k -> new AtomicInteger()).incrementAndGet();
            if (down.contains(a.provider().id())) {
                throw RESET;
            }
            if (faults.nextDouble() < faultRate) {
                throw List.of(RESET, status(500), status(429), status(503)).get(faults.nextInt(4));
            }
            return new ChatResponse("id", a.upstreamModel(), List.of(), StopReason.END_TURN, Optional.empty(), Usage.of(1, 1));
        }

        @Override
        public EventSource stream(Attempt a) {
            throw new UnsupportedOperationException("these providers do not stream");
        }
    };

    private static ProviderConfig provider(String id, String... keys) {
        return new ProviderConfig(id, ProviderType.OPENAI, URI.create("http://127.0.0.1:1/v1"), List.of(keys),
                Timeouts.DEFAULT, Map.of(), false, POLICY);
    }

    private static ModelEntry model(String id, RouteTarget... route) {
        return new ModelEntry(id, List.of(), Optional.empty(), "test", 1000, 100, Capabilities.TEXT_ONLY,
                ReasoningProfile.NONE, Pricing.FREE, List.of(), List.of(route));
    }

    private final ModelEntry primary = model("m", new RouteTarget("a", "up-a"), new RouteTarget("b", "up-b"),
            new RouteTarget("c", "up-c"));
    private final ModelEntry fallback = model("f", new RouteTarget("b", "up-f"));
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final FailoverRouter router = new FailoverRouter(
            new Catalog(List.of(provider("a", "ka1", "ka2"), provider("b", "kb"), provider("c", "kc")), List.of(primary, fallback)),
            Map.of(ProviderType.OPENAI, adapter), new GatewayMetrics(registry),
            new ImageInliner(new ImageFetcher(FetchLimits.DEFAULT)), breaker);
    private final List<Candidate> candidates = List.of(
            new Candidate(primary, ChatRequest.builder("m").addMessage(Message.user("hi")).build()),
            new Candidate(fallback, ChatRequest.builder("f").addMessage(Message.user("hi")).build()));

    private int totalCalls() {
        return calls.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    @Test
    void aBreakerThatIsOffNeverEjects() {
        for (int i = 0; i < 10; i++) {
            breaker.failed("p", Ejection.OFF, RESET);
        }
        assertThat(breaker.admit("p", Ejection.OFF)).isEqualTo(ProviderBreaker.Verdict.PASS);
        assertThat(breaker.admit("p", POLICY)).isEqualTo(ProviderBreaker.Verdict.PASS);
    }

    @Test
    void aProviderThatIsHardDownTakesNoLiveTrafficBeyondTheRunAndOneProbePerCooldown() {
        down.add("a");
        for (int i = 0; i < 200; i++) {
            Answer<ChatResponse> answer = router.complete(candidates, CandidateGate.OPEN, new AttemptLog());
            assertThat(answer.target().providerId()).isEqualTo("b");
            if (i % 50 == 49) {
                advance(COOLDOWN); // a cool-down before requests 50, 100, 150 and 200: three probes within the run
            }
        }
        assertThat(calls.get("a").get()).isEqualTo(3 + 3);
        assertThat(calls.get("b").get()).isEqualTo(200);
        assertThat(registry.get("switchboard_breaker_transitions").tag("provider", "a").tag("to", "open").counter().count())
                .isEqualTo(1);
        assertThat(registry.get("switchboard_breaker_skips").tag("provider", "a").counter().count()).isEqualTo(200 - 3 - 3);

        down.remove("a");
        assertThat(router.complete(candidates, CandidateGate.OPEN, new AttemptLog()).target().providerId()).isEqualTo("a");
        assertThat(registry.get("switchboard_breaker_transitions").tag("provider", "a").tag("to", "closed").counter().count())
                .isEqualTo(1);
    }

    @Test
    void whenEveryTargetIsEjectedTheCallerGetsA503NamingThemWithoutAnUpstreamCall() {
        down.addAll(List.of("a", "b", "c"));
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> router.complete(candidates, CandidateGate.OPEN, new AttemptLog()))
                    .isInstanceOf(GatewayException.class);
        }
        int before = totalCalls();
        AttemptLog log = new AttemptLog();
        assertThatThrownBy(() -> router.complete(candidates, CandidateGate.OPEN, log))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.error().status()).isEqualTo(503);
                    assertThat(e.error().message()).contains("m via a: skipped, failing repeatedly")
                            .contains("f via b: skipped");
                });
        assertThat(totalCalls()).isEqualTo(before);
        assertThat(log.attempts()).isEmpty();
        assertThat(log.ejected()).hasSize(4);
    }

    @Test
    void upstreamCallsNeverExceedRequestsTimesTargetsTimesKeysPlusTheRewriteRetry() {
        // seeded faults of every kind on every provider: the loop's bound holds for each request
        faults = new Random(20261124);
        faultRate = 0.6;
        // per request: targets a (2 keys), b, c of m and b of f, each key once, plus at most one rewrite retry
        int bound = (2 + 1 + 1) + 1 + 1;
        for (int i = 0; i < 2000; i++) {
            int before = totalCalls();
            try {
                router.complete(candidates, CandidateGate.OPEN, new AttemptLog());
            } catch (GatewayException e) {
                assertThat(e.error().status()).isIn(429, 503);
            }
            assertThat(totalCalls() - before).isLessThanOrEqualTo(bound);
            advance(Duration.ofMillis(50));
        }
        // the breaker only ever lowers the load below the bound
        assertThat(totalCalls()).isLessThanOrEqualTo(2000 * bound);
    }
}
