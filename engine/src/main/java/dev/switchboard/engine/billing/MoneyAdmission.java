package dev.switchboard.engine.billing;

import dev.switchboard.engine.account.BudgetPeriod;
import dev.switchboard.engine.account.KeyBudget;
import dev.switchboard.engine.account.Usd;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.Plans;
import dev.switchboard.engine.pipeline.Admission;
import dev.switchboard.engine.pipeline.AdmissionRequest;
import dev.switchboard.engine.pipeline.Admitted;
import dev.switchboard.engine.pipeline.Caller;
import dev.switchboard.engine.route.Candidate;
import dev.switchboard.model.GatewayError;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Money's admission (docs/contracts.md, Money): before any upstream call, decides whether the caller may pay
 * for the requested model and reserves the worst case of its request with one conditional update.
 * <ul>
 *   <li>a model the caller's active plan covers is admitted with nothing held (it costs the balance nothing);</li>
 *   <li>a model offered pay-as-you-go is admitted when the balance not yet held covers its worst case
 *       ({@link WorstCase}), which is then held; otherwise 402 {@code insufficient_quota} saying what the request
 *       needs and what the balance affords;</li>
 *   <li>for a key with a spend budget ({@code budget_usd}, {@code budget_period}), the same reservation also
 *       checks the key's charges in the current period plus its open holds ({@link SpendCap}); over it is 402
 *       {@code insufficient_quota} naming the key's budget and when it starts again;</li>
 *   <li>a model only plans may use: 402 {@code insufficient_quota} when the caller has no active plan (403
 *       {@code model_access_denied} for one whose plan excludes it is refused earlier, when models are resolved);</li>
 *   <li>{@code count_tokens} is never billed and holds nothing.</li>
 * </ul>
 * The {@link MoneyHold} it returns is asked before each fallback and raises the hold for a pricier one, or skips
 * it when the balance cannot cover it.
 */
public final class MoneyAdmission implements Admission {
    private final Plans plans;
    private final BalanceStore store;
    private final Clock clock;
    private final Duration holdTimeout;

    /** @param holdTimeout how long a hold outlives a gateway that dies before settling it */
    public MoneyAdmission(Plans plans, BalanceStore store, Clock clock, Duration holdTimeout) {
        this.plans = Objects.requireNonNull(plans, "plans");
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.holdTimeout = Objects.requireNonNull(holdTimeout, "holdTimeout");
    }

    @Override
    public Admitted admit(AdmissionRequest request) {
        if (request.purpose() == AdmissionRequest.Purpose.COUNT_TOKENS) {
            return Admitted.NOTHING_HELD;
        }
        Candidate requested = request.requested();
        ModelEntry model = requested.model();
        Caller caller = request.caller();
        MoneyHold hold = new MoneyHold(this, request);
        switch (plans.access(caller.plan(), model)) {
            case COVERED -> {
                return hold;
            }
            case NOT_IN_PLAN -> throw GatewayError.forbidden("model_access_denied", "The model '" + model.id()
                    + "' is not included in your plan (" + caller.plan() + ") and is not offered pay-as-you-go.").toException();
            case NEEDS_SUBSCRIPTION -> throw GatewayError.insufficientQuota("The model '" + model.id()
                    + "' needs an active subscription to a plan that covers it (" + String.join(", ", plans.covering(model))
                    + "); it is not offered pay-as-you-go.").toException();
            case PAY_AS_YOU_GO -> {
                WorstCase worst = WorstCase.of(requested);
                switch (store.reserve(hold(request, worst.nanos()))) {
                    case HELD -> {
                        hold.held(worst.nanos());
                        return hold;
                    }
                    case SHORT_OF_BALANCE -> throw GatewayError.insufficientQuota(shortfall(caller.userId(), model, worst))
                            .toException();
                    case OVER_KEY_BUDGET -> throw GatewayError.insufficientQuota(
                            overBudget(caller, caller.keyLimits().budget().orElseThrow(), worst.nanos())).toException();
                }
            }
        }
        throw new IllegalStateException("unreachable");
    }

    Plans plans() {
        return plans;
    }

    BalanceStore store() {
        return store;
    }

    /** The hold of {@code amountNanos} for the request, carrying its key's budget for the current period, if any. */
    Hold hold(AdmissionRequest request, long amountNanos) {
        Instant now = clock.instant();
        Caller caller = request.caller();
        Optional<SpendCap> budget = caller.keyLimits().budget()
                .map(b -> new SpendCap(b.nanos(), b.period().start(now)));
        return new Hold(request.requestId(), caller.userId(), caller.keyId(), amountNanos, now.plus(holdTimeout), now,
                budget);
    }

    /**
     * The 402's words when the key's budget is the limit: the budget and its period, what the key has spent or holds
     * in it, what this request may cost, and when the budget starts again (the next period's start, UTC).
     */
    String overBudget(Caller caller, KeyBudget budget, long worstNanos) {
        Instant now = clock.instant();
        Instant since = budget.period().start(now);
        long spent = store.keySpend(caller.keyId(), since);
        String per = switch (budget.period()) {
            case DAILY -> " per UTC day";
            case WEEKLY -> " per week";
            case MONTHLY -> " per month";
            case TOTAL -> " in total";
        };
        String used = budget.period() == BudgetPeriod.TOTAL ? "" : " since " + since;
        String reset = budget.period().end(now)
                .map(end -> "; it starts again at " + end + " (UTC)")
                .orElse("; it does not start again (budget_period total): raise the key's budget_usd");
        return "Key budget reached: the key's budget of " + Usd.format(budget.nanos()) + " USD" + per + " has "
                + Usd.format(Math.max(0, budget.nanos() - spent)) + " USD left (" + Usd.format(spent) + " USD spent or held"
                + used + ") and this request can cost up to " + Usd.format(worstNanos) + " USD" + reset
                + ". Lower max_tokens to fit what is left, or raise the key's budget.";
    }

    /**
     * The 402's words, the way OpenRouter answers: what the request asks for, what the balance covers, and what
     * to do about it.
     */
    String shortfall(String userId, ModelEntry model, WorstCase worst) {
        long available = store.balance(userId).map(Balance::availableNanos).orElse(0L);
        long covered = worst.outputTokensCovered(available, model.pricing());
        String base = "Insufficient credit for '" + model.id() + "': this request can cost up to "
                + Usd.format(worst.nanos()) + " USD (about " + worst.inputTokens() + " input tokens and up to "
                + worst.outputTokens() + " output tokens); ";
        if (available < worst.inputNanos()) {
            return base + "the balance available is " + Usd.format(available) + " USD, which does not cover the prompt. "
                    + "Add credit or shorten the prompt.";
        }
        return base + "requested up to " + worst.outputTokens() + " output tokens; the balance covers " + covered
                + ". Lower max_tokens or add credit.";
    }
}
