package dev.switchboard.server;

import java.util.Map;
import java.util.Optional;

/**
 * At least two carrier threads for the virtual threads, also when the JVM sees one CPU.
 *
 * <p>Why: with one CPU (a one-core container, or the process pinned to a core) the JDK runs every virtual thread on
 * one carrier thread, and under a steady load it served some connections and left others waiting: in runs of 8 s at
 * 32 streaming connections on one pinned core, about one run in five had requests that waited 0.2 to 2.5 s while the
 * gateway's own handling of every request stayed under 100 ms and no thread slept, parked or paused for GC that long.
 * With two carriers on the same core no such run was seen (28 runs), at the same CPU per request (docs/performance.md).
 * The operator's own {@value #PROPERTY} wins.
 */
final class VirtualThreadCarriers {
    static final String PROPERTY = "jdk.virtualThreadScheduler.parallelism";
    static final int AT_LEAST = 2;

    private VirtualThreadCarriers() {
    }

    /**
     * Sets {@value #PROPERTY} for this process when it needs to be; must run before the first virtual thread starts
     * (the JDK reads the property once, when it creates the scheduler).
     */
    static void apply() {
        parallelism(Runtime.getRuntime().availableProcessors(), Optional.ofNullable(System.getProperty(PROPERTY)))
                .ifPresent(n -> System.setProperty(PROPERTY, Integer.toString(n)));
    }

    /** The parallelism to set for a JVM seeing {@code cpus} CPUs, if any: none when the operator chose one. */
    static Optional<Integer> parallelism(int cpus, Optional<String> operatorChoice) {
        if (operatorChoice.isPresent() || cpus >= AT_LEAST) {
            return Optional.empty();
        }
        return Optional.of(AT_LEAST);
    }
}
