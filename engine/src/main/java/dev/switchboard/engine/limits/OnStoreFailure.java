package dev.switchboard.engine.limits;

import java.util.Locale;

/** What the gateway does with a request when the limit store cannot be reached ({@code limits.on_store_failure}). */
public enum OnStoreFailure {
    /** Serve it without counting it (the default: an outage of Redis is not an outage of the gateway). */
    ALLOW,
    /** Refuse it with 503 until the store answers again (for operators for whom a limit must never be exceeded). */
    DENY;

    /** The config word: {@code allow} or {@code deny}. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
