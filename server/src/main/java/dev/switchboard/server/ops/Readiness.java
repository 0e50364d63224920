package dev.switchboard.server.ops;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Whether this instance should get traffic ({@code GET /ready}): every dependency answers and the process is not
 * shutting down.
 *
 * <p>Cheap and bounded for a load balancer that probes often: the dependencies' answers are reused for
 * {@code reuseFor} (a probe storm costs one round of checks per period, however many probes arrive), each round
 * waits at most {@code timeout} for its answers, and a dependency never has more than one check running (a check
 * that outlives its round, say a database that stopped answering, is waited on by the next round instead of being
 * joined by another). Shutting down is read live, never reused: a draining instance leaves the pool at once.
 */
public final class Readiness {
    /** The state of a dependency that answered. */
    public static final String OK = "ok";
    /** The state of a dependency that failed or did not answer within the timeout. */
    public static final String UNREACHABLE = "unreachable";
    /** The name under which {@link Report#states()} says the process is shutting down. */
    public static final String SHUTDOWN = "shutdown";

    /** One dependency: its name in the report, and a check that says whether it answers (it may block). */
    public record Check(String name, BooleanSupplier answers) {
        public Check {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(answers, "answers");
        }
    }

    /**
     * One answer: ready or not, and each dependency's state ({@link #OK}, {@link #UNREACHABLE}), plus
     * {@link #SHUTDOWN} {@code -> "shutting down"} while draining.
     */
    public record Report(boolean ready, Map<String, String> states) {
        public Report {
            // kept in check order: the body lists the dependencies as configured
            states = Collections.unmodifiableMap(new LinkedHashMap<>(states));
        }

        /** The names of what is not ready, in check order ({@link #SHUTDOWN} last). */
        public List<String> notReady() {
            return states.entrySet().stream().filter(e -> !OK.equals(e.getValue())).map(Map.Entry::getKey).toList();
        }
    }

    private final List<Check> checks;
    private final BooleanSupplier shuttingDown;
    private final Duration timeout;
    private final long reuseForNanos;
    private final LongSupplier nanoTime;
    private final Map<String, CompletableFuture<Boolean>> running = new LinkedHashMap<>();
    private Map<String, String> lastStates = Map.of();
    private long lastAtNanos;
    private boolean checked;

    /**
     * @param checks       the dependencies, in the order the report names them
     * @param shuttingDown true once the process began to drain
     * @param timeout      the longest one round waits for the checks' answers
     * @param reuseFor     how long one round's answers are reused
     * @param nanoTime     the monotonic clock ({@code System::nanoTime}; tests move their own)
     */
    public Readiness(List<Check> checks, BooleanSupplier shuttingDown, Duration timeout, Duration reuseFor,
                     LongSupplier nanoTime) {
        this.checks = List.copyOf(checks);
        this.shuttingDown = shuttingDown;
        this.timeout = timeout;
        this.reuseForNanos = reuseFor.toNanos();
        this.nanoTime = nanoTime;
    }

    /** Ready or not, now; waits at most the timeout (plus the time another caller's round takes, likewise bounded). */
    public Report report() {
        Map<String, String> states = new LinkedHashMap<>(dependencies());
        boolean draining = shuttingDown.getAsBoolean();
        if (draining) {
            states.put(SHUTDOWN, "shutting down");
        }
        boolean ready = !draining && states.values().stream().allMatch(OK::equals);
        return new Report(ready, states);
    }

    private synchronized Map<String, String> dependencies() {
        long now = nanoTime.getAsLong();
        if (checked && now - lastAtNanos < reuseForNanos) {
            return lastStates;
        }
        for (Check c : checks) {
            CompletableFuture<Boolean> current = running.get(c.name());
            if (current == null || current.isDone()) {
                // a virtual thread per check: a blocked check holds no platform thread
                CompletableFuture<Boolean> next = new CompletableFuture<>();
                Thread.ofVirtual().name("switchboard-ready-" + c.name()).start(() -> {
                    try {
                        next.complete(c.answers().getAsBoolean());
                    } catch (RuntimeException e) {
                        next.complete(false);
                    }
                });
                running.put(c.name(), next);
            }
        }
        long deadline = now + timeout.toNanos();
        Map<String, String> states = new LinkedHashMap<>();
        for (Check c : checks) {
            states.put(c.name(), await(running.get(c.name()), deadline) ? OK : UNREACHABLE);
        }
        lastStates = Collections.unmodifiableMap(states);
        // reused from when the round ended: a slow round is not followed at once by another
        lastAtNanos = nanoTime.getAsLong();
        checked = true;
        return states;
    }

    private boolean await(CompletableFuture<Boolean> answer, long deadline) {
        long left = Math.max(0, deadline - nanoTime.getAsLong());
        try {
            return answer.get(left, TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
