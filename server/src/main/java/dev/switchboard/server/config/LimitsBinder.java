package dev.switchboard.server.config;

import dev.switchboard.engine.limits.OnStoreFailure;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Binds the {@code limits:} section; every problem is reported with its place. */
final class LimitsBinder {
    static final List<String> KEYS = List.of("on_store_failure", "store_timeout", "redis_prefix");
    private static final java.util.regex.Pattern PREFIX = java.util.regex.Pattern.compile("[A-Za-z0-9_.:{}-]{0,64}");
    /** The longest {@code store_timeout}: a request should never wait longer than this for its limits. */
    static final Duration MAX_STORE_TIMEOUT = Duration.ofSeconds(30);

    private LimitsBinder() {
    }

    static LimitsConfig limits(YamlFields top) {
        return top.section("limits", "limits: {on_store_failure: allow}", KEYS).map(LimitsBinder::limitsSection)
                .orElse(LimitsConfig.DEFAULT);
    }

    private static LimitsConfig limitsSection(YamlFields l) {
        LimitsConfig def = LimitsConfig.DEFAULT;
        OnStoreFailure policy = l.word("on_store_failure", "on_store_failure: allow",
                Map.of("allow", OnStoreFailure.ALLOW, "deny", OnStoreFailure.DENY), "allow or deny").orElse(def.onStoreFailure());
        Duration timeout = l.scalar("store_timeout", "store_timeout: 1s").map(s -> {
            Optional<Duration> d = Durations.parse(s.text());
            if (d.isEmpty() || d.get().isZero() || d.get().compareTo(MAX_STORE_TIMEOUT) > 0) {
                l.problems().add(s, l.label("store_timeout") + " must be " + Durations.EXPECTED + ", more than 0 and at most "
                        + MAX_STORE_TIMEOUT.toSeconds() + "s, got '" + s.text() + "'");
                return def.storeTimeout();
            }
            return d.get();
        }).orElse(def.storeTimeout());
        String prefix = l.scalar("redis_prefix", "redis_prefix: \"switchboard:\"").map(s -> {
            if (!PREFIX.matcher(s.text()).matches()) {
                l.problems().add(s, l.label("redis_prefix") + " must be at most 64 letters, digits or _ . : - { }, got '"
                        + s.text() + "'");
                return def.redisPrefix();
            }
            return s.text();
        }).orElse(def.redisPrefix());
        return new LimitsConfig(policy, timeout, prefix);
    }
}
