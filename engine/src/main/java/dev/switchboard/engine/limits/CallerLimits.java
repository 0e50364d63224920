package dev.switchboard.engine.limits;

import dev.switchboard.engine.account.KeyLimits;
import dev.switchboard.engine.pipeline.Caller;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * The limits one request is checked against, in a fixed order: the key's rpm, the plan's rpm, the key's
 * max_parallel, the key's tpm, the key's daily token cap, the plan's daily token cap. A key's limits are counted
 * per key; a plan's per user, across all the user's keys.
 */
final class CallerLimits {
    private CallerLimits() {
    }

    static List<Limit> of(Caller caller, PlanQuota plan) {
        KeyLimits key = caller.keyLimits();
        if (key.rpm().isEmpty() && key.tpm().isEmpty() && key.dailyTokens().isEmpty() && key.maxParallel().isEmpty()
                && plan.rpm().isEmpty() && plan.dailyTokens().isEmpty()) {
            return List.of(); // most callers: nothing to count, nothing to build
        }
        List<Limit> limits = new ArrayList<>(6);
        String k = "key:" + caller.keyId() + ":";
        String u = "user:" + caller.userId() + ":plan:";
        String planOwner = Limit.plan(caller.plan());
        add(limits, LimitKind.REQUESTS_PER_MINUTE, k + "rpm", key.rpm(), Limit.KEY);
        add(limits, LimitKind.REQUESTS_PER_MINUTE, u + "rpm", plan.rpm(), planOwner);
        add(limits, LimitKind.PARALLEL_REQUESTS, k + "parallel", key.maxParallel(), Limit.KEY);
        add(limits, LimitKind.TOKENS_PER_MINUTE, k + "tpm", key.tpm(), Limit.KEY);
        add(limits, LimitKind.TOKENS_PER_DAY, k + "day", key.dailyTokens(), Limit.KEY);
        add(limits, LimitKind.TOKENS_PER_DAY, u + "day", plan.dailyTokens(), planOwner);
        return limits;
    }

    private static void add(List<Limit> limits, LimitKind kind, String counter, OptionalLong ceiling, String owner) {
        if (ceiling.isPresent()) {
            limits.add(new Limit(kind, counter, ceiling.getAsLong(), owner));
        }
    }
}
