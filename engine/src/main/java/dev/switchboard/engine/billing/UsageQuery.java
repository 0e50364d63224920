package dev.switchboard.engine.billing;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Which usage records to read: every filter optional (user, key, answering model, {@code from} inclusive,
 * {@code to} exclusive), newest first, a page of {@code limit} after {@code offset}.
 */
public record UsageQuery(Optional<String> userId, Optional<String> keyId, Optional<String> model, Optional<Instant> from,
                         Optional<Instant> to, int offset, int limit) {
    /** The largest page. */
    public static final int MAX_LIMIT = 1000;

    public UsageQuery {
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        if (offset < 0 || limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("offset " + offset + ", limit " + limit);
        }
    }

    /** Everything of one user between {@code from} and {@code to}. */
    public static UsageQuery ofUser(String userId, Instant from, Instant to) {
        return new UsageQuery(Optional.of(userId), Optional.empty(), Optional.empty(), Optional.of(from), Optional.of(to), 0,
                MAX_LIMIT);
    }
}
