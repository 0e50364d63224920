package dev.switchboard.engine.limits;

import dev.switchboard.engine.metrics.GatewayMetrics;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link LimitStore} with the policy for when it cannot be reached ({@link OnStoreFailure}): every failed
 * operation is counted in a metric, an outage is logged once when it starts and once when the store answers again,
 * and a check that failed is either granted uncounted ({@link OnStoreFailure#ALLOW}: its hold holds nothing, so
 * its settlement touches nothing) or passed on as {@link LimitStoreException} ({@link OnStoreFailure#DENY}).
 * Settlements that fail are dropped: what they would have corrected is lost with the outage.
 */
public final class GuardedLimitStore implements LimitStore {
    private static final Logger LOG = LoggerFactory.getLogger(GuardedLimitStore.class);

    private final LimitStore store;
    private final OnStoreFailure policy;
    private final GatewayMetrics metrics;
    private final AtomicBoolean down = new AtomicBoolean();

    public GuardedLimitStore(LimitStore store, OnStoreFailure policy, GatewayMetrics metrics) {
        this.store = store;
        this.policy = policy;
        this.metrics = metrics;
    }

    public OnStoreFailure policy() {
        return policy;
    }

    @Override
    public LimitCheck reserve(String requestId, List<Limit> limits, long tokens) {
        try {
            LimitCheck check = store.reserve(requestId, limits, tokens);
            up();
            return check;
        } catch (LimitStoreException e) {
            failed(e);
            if (policy == OnStoreFailure.DENY) {
                throw e;
            }
            return new LimitCheck(List.of(), Optional.of(new LimitHold(requestId, List.of(), 0, 0)));
        }
    }

    @Override
    public void settle(LimitHold hold, long actualTokens) {
        if (hold.limits().isEmpty()) {
            return;
        }
        try {
            store.settle(hold, actualTokens);
            up();
        } catch (LimitStoreException e) {
            failed(e);
        }
    }

    @Override
    public void release(LimitHold hold) {
        if (hold.limits().isEmpty()) {
            return;
        }
        try {
            store.release(hold);
            up();
        } catch (LimitStoreException e) {
            failed(e);
        }
    }

    private void failed(LimitStoreException e) {
        metrics.limitStoreFailure(policy.configName());
        if (down.compareAndSet(false, true)) {
            LOG.atError().addKeyValue("policy", policy.configName()).addKeyValue("reason", e.getMessage())
                    .log(policy == OnStoreFailure.ALLOW
                            ? "limit store unreachable: requests are served without counting limits until it is back"
                            : "limit store unreachable: requests of limited keys are refused (503) until it is back");
        }
    }

    private void up() {
        if (down.get() && down.compareAndSet(true, false)) {
            LOG.atWarn().log("limit store reachable again: limits are counted again");
        }
    }
}
