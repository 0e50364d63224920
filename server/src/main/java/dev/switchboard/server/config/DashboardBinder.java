package dev.switchboard.server.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Binds the {@code dashboard:} and {@code extend:} sections; every problem is reported with its place. */
final class DashboardBinder {
    static final List<String> DASHBOARD_KEYS = List.of("signup", "session_idle", "session_max", "secure_cookie",
            "trust_forwarded_for");
    static final List<String> EXTEND_KEYS = List.of("starter_catalog");

    private DashboardBinder() {
    }

    static DashboardConfig dashboard(YamlFields top) {
        return top.section("dashboard", "dashboard: {signup: closed, session_idle: 168h}", DASHBOARD_KEYS)
                .map(DashboardBinder::dashboardSection).orElse(DashboardConfig.DEFAULT);
    }

    private static DashboardConfig dashboardSection(YamlFields d) {
        DashboardConfig def = DashboardConfig.DEFAULT;
        boolean open = d.word("signup", "signup: closed", Map.of("open", true, "closed", false), "open or closed")
                .orElse(def.openSignup());
        Duration idle = d.duration("session_idle", "session_idle: 168h").orElse(def.sessionIdle());
        Duration max = d.duration("session_max", "session_max: 168h").orElse(def.sessionMax());
        DashboardConfig.SecureCookie secure = d.word("secure_cookie", "secure_cookie: auto", Map.of(
                "auto", DashboardConfig.SecureCookie.AUTO,
                "always", DashboardConfig.SecureCookie.ALWAYS, "true", DashboardConfig.SecureCookie.ALWAYS,
                "never", DashboardConfig.SecureCookie.NEVER, "false", DashboardConfig.SecureCookie.NEVER),
                "auto, always or never").orElse(def.secureCookie());
        boolean trust = d.bool("trust_forwarded_for").orElse(def.trustForwardedFor());
        return new DashboardConfig(open, idle, max, secure, trust);
    }

    /** {@code extend: {starter_catalog: true}}: whether the starter catalog is loaded on first start. */
    static boolean starterCatalog(YamlFields top) {
        return top.section("extend", "extend: {starter_catalog: true}", EXTEND_KEYS)
                .flatMap(f -> f.bool("starter_catalog")).orElse(true);
    }
}
