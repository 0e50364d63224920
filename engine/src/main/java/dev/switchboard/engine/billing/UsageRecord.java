package dev.switchboard.engine.billing;

import dev.switchboard.model.Usage;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One billed request as recorded: who (user, key), through which endpoint, the model asked for and the one
 * that answered (and its provider), whether it streamed, every token class with its provenance, what it cost
 * at the answering model's prices, what the balance paid ({@code chargedNanos}: 0 under a plan that covers
 * the model, and never more than the balance had), how it ended, how long it took and when.
 *
 * @param status {@code COMPLETED}, {@code CUT} (the upstream broke off) or {@code CLIENT_GONE}
 */
public record UsageRecord(String requestId, String userId, String keyId, String endpoint, String requestedModel,
                          String model, String provider, boolean streamed, Usage usage, long costNanos, long chargedNanos,
                          Optional<String> plan, String status, Duration latency, Instant createdAt) {
    public UsageRecord {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(requestedModel, "requestedModel");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(usage, "usage");
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(latency, "latency");
        Objects.requireNonNull(createdAt, "createdAt");
        if (costNanos < 0 || chargedNanos < 0 || chargedNanos > costNanos) {
            throw new IllegalArgumentException("request " + requestId + ": charged " + chargedNanos + " of a cost of " + costNanos);
        }
    }

    /** This record with what the balance actually paid. */
    public UsageRecord withCharged(long charged) {
        return new UsageRecord(requestId, userId, keyId, endpoint, requestedModel, model, provider, streamed, usage, costNanos,
                charged, plan, status, latency, createdAt);
    }
}
