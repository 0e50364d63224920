package dev.switchboard.engine.limits;

import dev.switchboard.engine.metrics.GatewayMetrics;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link LimitStore} with the policy for when it cannot be reached ({@link OnStoreFailure}): every failed
 * operation is counted in a metric, an outage is logged once when it starts and once when the store answers again,
 * and a check that failed is either granted uncounted ({@link OnStoreFailure#ALLOW}: its hold holds nothing, so
 * its settlement touches nothing) or passed on as {@link LimitStoreException} ({@link OnStoreFailure#DENY}).
 * Settlements that fail, at once or later (a store may send them without waiting), are dropped: what they would
 * have corrected is lost with the outage.
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
    public CompletionStage<Void> settle(LimitHold hold, long actualTokens) {
        if (hold.limits().isEmpty()) {
            return DONE;
        }
        try {
            return watched(store.settle(hold, actualTokens));
        } catch (LimitStoreException e) {
            failed(e);
            return DONE;
        }
    }

    @Override
    public CompletionStage<Void> release(LimitHold hold) {
        if (hold.limits().isEmpty()) {
            return DONE;
        }
        try {
            return watched(store.release(hold));
        } catch (LimitStoreException e) {
            failed(e);
            return DONE;
        }
    }

    /** The stage of a settlement, its failure counted and logged like any other and then dropped. */
    private CompletionStage<Void> watched(CompletionStage<Void> sent) {
        return sent.handle((done, e) -> {
            if (e == null) {
                up();
            } else if (unwrap(e) instanceof LimitStoreException f) {
                failed(f);
            } else {
                failed(new LimitStoreException("settlement failed: " + unwrap(e), unwrap(e)));
            }
            return null;
        });
    }

    private static Throwable unwrap(Throwable e) {
        return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
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
