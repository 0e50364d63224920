package dev.switchboard.server.config;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How the HTTP edge treats clients, from the config's {@code http}, {@code cors} and {@code metrics} sections.
 *
 * @param maxBodyBytes the largest request body accepted; larger ones are a 413 ({@code http.max_body})
 * @param heartbeat    quiet streams get a keep-alive at least every half of this, and a client that left is
 *                     noticed (and its upstream request cancelled) within it ({@code http.heartbeat})
 * @param corsOrigins  browser origins allowed to call the API: exact origins, or {@code *} ({@code cors.allowed_origins})
 * @param metricsToken when set, {@code GET /metrics} needs {@code Authorization: Bearer <token>} ({@code metrics.token})
 * @param idempotencyTtl how long the answer of a chat request with an {@code Idempotency-Key} is replayed to repeats
 *                     of it ({@code http.idempotency_ttl})
 * @param readTimeout  the whole request body must arrive within this of the headers; a slower one (a client
 *                     dripping bytes) is a 408 and the connection is closed ({@code http.read_timeout})
 * @param shutdownGrace on SIGTERM, how long requests and streams already running may take to finish before the
 *                     streams still open are ended with an in-band error ({@code http.shutdown_grace})
 */
public record EdgeSettings(long maxBodyBytes, Duration heartbeat, List<String> corsOrigins, Optional<String> metricsToken,
                           Duration idempotencyTtl, Duration readTimeout, Duration shutdownGrace) {
    public static final long DEFAULT_MAX_BODY_BYTES = 32L * 1024 * 1024;
    public static final Duration DEFAULT_HEARTBEAT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_IDEMPOTENCY_TTL = Duration.ofHours(24);
    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(30);
    public static final EdgeSettings DEFAULTS = new EdgeSettings(DEFAULT_MAX_BODY_BYTES, DEFAULT_HEARTBEAT, List.of(),
            Optional.empty());

    /** Settings with the default idempotency lifetime. */
    public EdgeSettings(long maxBodyBytes, Duration heartbeat, List<String> corsOrigins, Optional<String> metricsToken) {
        this(maxBodyBytes, heartbeat, corsOrigins, metricsToken, DEFAULT_IDEMPOTENCY_TTL, DEFAULT_READ_TIMEOUT);
    }

    /** Settings with the default shutdown grace period. */
    public EdgeSettings(long maxBodyBytes, Duration heartbeat, List<String> corsOrigins, Optional<String> metricsToken,
                        Duration idempotencyTtl, Duration readTimeout) {
        this(maxBodyBytes, heartbeat, corsOrigins, metricsToken, idempotencyTtl, readTimeout, DEFAULT_SHUTDOWN_GRACE);
    }

    public EdgeSettings {
        if (maxBodyBytes < 1) {
            throw new IllegalArgumentException("maxBodyBytes must be positive");
        }
        Objects.requireNonNull(heartbeat, "heartbeat");
        corsOrigins = List.copyOf(corsOrigins);
        Objects.requireNonNull(metricsToken, "metricsToken");
        if (idempotencyTtl.isNegative() || idempotencyTtl.isZero() || readTimeout.isNegative() || readTimeout.isZero()) {
            throw new IllegalArgumentException("idempotencyTtl and readTimeout must be positive");
        }
        if (shutdownGrace.isNegative()) {
            throw new IllegalArgumentException("shutdownGrace must not be negative");
        }
    }

    /** Never prints the metrics token. */
    @Override
    public String toString() {
        return "EdgeSettings[maxBodyBytes=" + maxBodyBytes + ", heartbeat=" + heartbeat + ", corsOrigins=" + corsOrigins
                + ", metricsToken=" + (metricsToken.isPresent() ? "(set)" : "(none)") + ", idempotencyTtl=" + idempotencyTtl + ", readTimeout=" + readTimeout + ", shutdownGrace=" + shutdownGrace + "]";
    }
}
