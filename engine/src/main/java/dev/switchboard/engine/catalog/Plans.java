package dev.switchboard.engine.catalog;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The configured plans, and the one rule for what a caller's plan lets it do with a model
 * ({@link #access}). {@code payg} is not a plan: it is what a user without an active plan is on.
 */
public final class Plans {
    /** No plan configured: every user is pay-as-you-go. */
    public static final Plans NONE = new Plans(List.of());
    /** The plan id of a user without a subscription (and of one whose plan ended). */
    public static final String PAYG = "payg";

    /** What a caller may do with a model, decided before any upstream call. */
    public enum Access {
        /** The caller's active plan covers the model: admitted, charged 0, usage recorded. */
        COVERED,
        /** Not covered, pay-as-you-go allowed: the balance pays. */
        PAY_AS_YOU_GO,
        /** Not covered, pay-as-you-go not allowed, and the caller has an active plan: 403 {@code model_access_denied}. */
        NOT_IN_PLAN,
        /** Not covered, pay-as-you-go not allowed, and the caller has no active plan: 402 {@code insufficient_quota}. */
        NEEDS_SUBSCRIPTION;

        /** Whether a request for the model may go ahead (money permitting). */
        public boolean usable() {
            return this == COVERED || this == PAY_AS_YOU_GO;
        }
    }

    private final Map<String, Plan> byId;

    public Plans(Collection<Plan> plans) {
        Map<String, Plan> m = new LinkedHashMap<>();
        for (Plan p : plans) {
            if (p.id().equals(PAYG)) {
                throw new IllegalArgumentException("'" + PAYG + "' is the name of pay-as-you-go, not a plan");
            }
            if (m.put(p.id(), p) != null) {
                throw new IllegalArgumentException("duplicate plan id " + p.id());
            }
        }
        this.byId = Collections.unmodifiableMap(m);
    }

    public Optional<Plan> find(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    public List<Plan> all() {
        return List.copyOf(byId.values());
    }

    /** Whether {@code planId} is a configured plan, i.e. a user on it has an active subscription. */
    public boolean isPlan(String planId) {
        return byId.containsKey(planId);
    }

    /** Whether the plan covers the model: the plan names it, or the model names the plan. */
    public boolean covers(String planId, ModelEntry model) {
        Plan p = byId.get(planId);
        return p != null && (p.models().contains(model.id()) || model.plans().contains(planId));
    }

    /**
     * What a caller whose active plan is {@code activePlan} ({@link #PAYG} when none) may do with
     * {@code model}. A plan id that is not configured (any more) counts as no plan.
     */
    public Access access(String activePlan, ModelEntry model) {
        if (covers(activePlan, model)) {
            return Access.COVERED;
        }
        if (model.payAsYouGo()) {
            return Access.PAY_AS_YOU_GO;
        }
        return isPlan(activePlan) ? Access.NOT_IN_PLAN : Access.NEEDS_SUBSCRIPTION;
    }

    /** The ids of the plans that cover {@code model}, in configuration order. */
    public List<String> covering(ModelEntry model) {
        return byId.keySet().stream().filter(id -> covers(id, model)).toList();
    }
}
