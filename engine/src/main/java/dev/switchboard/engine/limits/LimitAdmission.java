package dev.switchboard.engine.limits;

import dev.switchboard.engine.metrics.GatewayMetrics;
import dev.switchboard.engine.pipeline.Admission;
import dev.switchboard.engine.pipeline.AdmissionRequest;
import dev.switchboard.engine.pipeline.Admitted;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.RateLimitStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The limits half of admission: checks the request against its key's and its plan's limits
 * ({@link CallerLimits}) and reserves in all of them at once, or refuses with 429 {@code rate_limit_error}
 * naming the limit and when it has room again (and {@code Retry-After}). A caller without limits costs nothing
 * here: no store is asked. A refused request reserves nothing, so it consumes neither rate nor tokens.
 *
 * <p>When the store cannot be reached and the policy is {@link OnStoreFailure#DENY}, the request is refused with
 * 503: the limits cannot be checked.
 */
public final class LimitAdmission implements Admission {
    /** What a caller waits when the store is down under the deny policy. */
    static final Duration STORE_DOWN_RETRY = Duration.ofSeconds(1);

    private final LimitStore store;
    private final PlanQuota.Lookup plans;
    private final GatewayMetrics metrics;
    private final Clock clock;

    public LimitAdmission(LimitStore store, PlanQuota.Lookup plans, GatewayMetrics metrics, Clock clock) {
        this.store = store;
        this.plans = plans;
        this.metrics = metrics;
        this.clock = clock;
    }

    @Override
    public Admitted admit(AdmissionRequest request) {
        List<Limit> limits = CallerLimits.of(request.caller(), plans.of(request.caller().plan()));
        if (limits.isEmpty()) {
            return Admitted.NOTHING_HELD;
        }
        boolean countsTokens = limits.stream().anyMatch(l -> l.kind().countsTokens());
        long tokens = countsTokens && request.purpose() == AdmissionRequest.Purpose.GENERATE
                ? TokenEstimate.of(request.candidates()) : 0;
        LimitCheck check;
        try {
            check = store.reserve(request.requestId(), limits, tokens);
        } catch (LimitStoreException e) {
            throw new GatewayException(GatewayError.upstreamUnavailable("Rate limits cannot be checked right now "
                    + "(the limit store is unreachable); please retry shortly."), Optional.of(STORE_DOWN_RETRY));
        }
        Optional<RateLimitStatus> status = status(check.tallies());
        if (check.granted()) {
            return new LimitsAdmitted(check.hold().orElseThrow(), status, store);
        }
        throw refusal(request, check.tallies(), tokens, status);
    }

    /** 429 naming the limit that keeps the request waiting longest (retrying before it has room is pointless). */
    private GatewayException refusal(AdmissionRequest request, List<Tally> tallies, long tokens,
                                     Optional<RateLimitStatus> status) {
        Tally worst = tallies.stream().filter(Tally::refuses)
                .max(Comparator.comparing(t -> t.refusedUntil().orElseThrow())).orElseThrow();
        metrics.limitRefusal(worst.limit().kind().label().replace(' ', '_'));
        Instant now = clock.instant();
        Instant until = worst.refusedUntil().orElseThrow();
        Limit limit = worst.limit();
        String message;
        Optional<Duration> retryAfter;
        if (until.equals(Instant.MAX)) {
            message = "Token limit: this request may use up to " + tokens + " tokens (about "
                    + TokenEstimate.prompt(request.requested()) + " of input plus its max_tokens), more than "
                    + limit.describe() + " allows at all. Lower max_tokens or shorten the input.";
            retryAfter = Optional.empty();
        } else {
            Duration wait = Duration.between(now, until);
            if (wait.isNegative()) {
                wait = Duration.ZERO;
            }
            String when = "; it has room again at " + until.truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                    + " (in " + Waits.words(wait) + ")";
            message = switch (limit.kind()) {
                case REQUESTS_PER_MINUTE -> "Rate limit reached: " + limit.describe() + " is used up" + when + ".";
                case PARALLEL_REQUESTS -> "Too many requests at once: " + limit.describe() + " are already running;"
                        + " retry when one of them has finished.";
                case TOKENS_PER_MINUTE, TOKENS_PER_DAY -> "Token limit reached: " + limit.describe() + " has "
                        + worst.remaining() + " tokens left and this request may use up to " + tokens
                        + " (its input plus max_tokens)" + when + ". Lower max_tokens to fit what is left, or wait.";
            };
            retryAfter = Optional.of(wait);
        }
        return new GatewayException(GatewayError.rateLimited(message), retryAfter, status);
    }

    /** The tightest request window and the tightest token limit among the tallies. */
    static Optional<RateLimitStatus> status(List<Tally> tallies) {
        Optional<RateLimitStatus.Window> requests = tightest(tallies, true);
        Optional<RateLimitStatus.Window> tokens = tightest(tallies, false);
        return requests.isEmpty() && tokens.isEmpty() ? Optional.empty()
                : Optional.of(new RateLimitStatus(requests, tokens));
    }

    private static Optional<RateLimitStatus.Window> tightest(List<Tally> tallies, boolean requests) {
        return tallies.stream()
                .filter(t -> requests ? t.limit().kind().countsRequests() : t.limit().kind().countsTokens())
                .min(Comparator.comparingLong(Tally::remaining))
                .map(t -> new RateLimitStatus.Window(t.limit().ceiling(), t.remaining(), t.resetAt()));
    }
}
