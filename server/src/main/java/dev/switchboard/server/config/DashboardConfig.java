package dev.switchboard.server.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The {@code dashboard:} settings: sign-in sessions and self sign-up.
 *
 * @param openSignup        {@code signup: open} lets anyone create an account ({@code POST /auth/signup}); default closed
 * @param sessionIdle       a session unused this long ends ({@code session_idle}, default 168h: 7 days)
 * @param sessionMax        a session ends this long after sign-in ({@code session_max}, default 720h: 30 days)
 * @param secureCookie      when the session cookie gets {@code Secure}
 * @param trustForwardedFor take the client address from the last {@code X-Forwarded-For} entry (set it only behind a
 *                          proxy that writes that header), for throttling per address
 */
public record DashboardConfig(boolean openSignup, Duration sessionIdle, Duration sessionMax, SecureCookie secureCookie,
                              boolean trustForwardedFor) {
    /** When the cookie is marked {@code Secure}. */
    public enum SecureCookie {
        /** When the request came over TLS as a proxy reports it ({@code X-Forwarded-Proto: https}). */
        AUTO,
        ALWAYS,
        NEVER
    }

    public static final DashboardConfig DEFAULT = new DashboardConfig(false, Duration.ofDays(7), Duration.ofDays(30),
            SecureCookie.AUTO, false);

    public DashboardConfig {
        Objects.requireNonNull(sessionIdle, "sessionIdle");
        Objects.requireNonNull(sessionMax, "sessionMax");
        Objects.requireNonNull(secureCookie, "secureCookie");
    }
}
