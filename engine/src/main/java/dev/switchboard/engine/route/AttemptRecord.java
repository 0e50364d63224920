package dev.switchboard.engine.route;

import java.util.Objects;

/**
 * One upstream attempt as the operator sees it: which model, provider and key slot (never the key),
 * the outcome ({@code ok}, an HTTP status, {@code reset}, {@code first-byte timeout}...), and how long it took.
 */
public record AttemptRecord(String model, String provider, String upstreamModel, int keySlot, boolean ok,
                            String outcome, long millis) {
    public AttemptRecord {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(upstreamModel, "upstreamModel");
        Objects.requireNonNull(outcome, "outcome");
    }
}
