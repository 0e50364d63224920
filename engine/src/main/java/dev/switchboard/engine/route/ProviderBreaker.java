package dev.switchboard.engine.route;

import dev.switchboard.engine.catalog.Ejection;
import dev.switchboard.engine.upstream.UpstreamFailure;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Outlier ejection for providers, as Envoy does it, per route target (a provider and an upstream model, since
 * an aggregator often fails one model while serving the others): after {@link Ejection#failures()} consecutive
 * outage failures of a target (connect failure, reset, timeout, 5xx, a stream that ended before its first
 * event), it is <b>ejected</b> for {@link Ejection#cooldown()} (each provider's {@code breaker} setting): the failover loop skips it and moves on, so a
 * provider that is hard down takes no live traffic. When the cool-down is over, exactly one request is let
 * through as a probe; its success closes the breaker, its failure ejects the target for another cool-down.
 * A probe that never reports (its request ended otherwise) is replaced by another after one more cool-down.
 *
 * <p>Rate limits (408, 409, 425, 429) and the caller's own 4xx are not outages: a 4xx answer proves the
 * target up and counts as a success. Thread-safe; one instance per router, shared by every request.
 */
public final class ProviderBreaker {

    /** What the breaker says about one attempt on a target. */
    public enum Verdict {
        /** Closed: the target takes traffic. */
        PASS,
        /** The one probe after a cool-down. */
        PROBE,
        /** Ejected: skip the target. */
        EJECTED
    }

    /** A change of a target's state, for the log and metrics. */
    public enum Transition { NONE, OPENED, CLOSED }

    private final LongSupplier nanoClock;
    private final Map<String, State> states = new ConcurrentHashMap<>();

    public ProviderBreaker(LongSupplier nanoClock) {
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    }

    public ProviderBreaker() {
        this(System::nanoTime);
    }

    /** The name the breaker keeps a target's state under. */
    public static String target(String provider, String upstreamModel) {
        return provider + "/" + upstreamModel;
    }

    /** Whether an attempt on {@code target} may go ahead now, under {@code policy}. */
    public Verdict admit(String target, Ejection policy) {
        return policy.enabled() ? state(target).admit(nanoClock.getAsLong(), policy) : Verdict.PASS;
    }

    /** Records an attempt on {@code target} that got an answer (or the caller's own 4xx). */
    public Transition succeeded(String target, Ejection policy) {
        return policy.enabled() ? state(target).succeeded() : Transition.NONE;
    }

    /** Records a failed attempt on {@code target}; only outages count towards ejection. */
    public Transition failed(String target, Ejection policy, UpstreamFailure failure) {
        if (!policy.enabled()) {
            return Transition.NONE;
        }
        if (!isOutage(failure)) {
            return succeeded(target, policy);
        }
        return state(target).failed(nanoClock.getAsLong(), policy);
    }

    /** Whether {@code target} is ejected right now (its cool-down running or its probe out). */
    public boolean isOpen(String target) {
        State s = states.get(target);
        return s != null && s.isOpen();
    }

    /** A failure that says the target is down, not that the caller or a rate limit is at fault. */
    static boolean isOutage(UpstreamFailure f) {
        if (f.kind() != UpstreamFailure.Kind.HTTP_STATUS) {
            return true;
        }
        return f.status() >= 500;
    }

    private State state(String target) {
        return states.computeIfAbsent(target, p -> new State());
    }

    private final class State {
        private int consecutive;
        private boolean open;
        /** When the cool-down ends (and a probe may go); meaningful while open. */
        private long retryAt;
        private boolean probing;

        synchronized Verdict admit(long now, Ejection policy) {
            if (!open) {
                return Verdict.PASS;
            }
            if (now - retryAt < 0) {
                return Verdict.EJECTED;
            }
            // the cool-down is over: one probe; a probe that never reported is replaced after another cool-down
            probing = true;
            retryAt = now + policy.cooldown().toNanos();
            return Verdict.PROBE;
        }

        synchronized Transition succeeded() {
            consecutive = 0;
            probing = false;
            if (open) {
                open = false;
                return Transition.CLOSED;
            }
            return Transition.NONE;
        }

        synchronized Transition failed(long now, Ejection policy) {
            consecutive++;
            if (open) {
                // a failed probe (or a late report from before the ejection): another cool-down
                if (probing) {
                    probing = false;
                    retryAt = now + policy.cooldown().toNanos();
                }
                return Transition.NONE;
            }
            if (consecutive >= policy.failures()) {
                open = true;
                probing = false;
                retryAt = now + policy.cooldown().toNanos();
                return Transition.OPENED;
            }
            return Transition.NONE;
        }

        synchronized boolean isOpen() {
            return open;
        }
    }
}
