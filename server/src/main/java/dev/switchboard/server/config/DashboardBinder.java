package dev.switchboard.server.config;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Binds the {@code dashboard:} and {@code extend:} sections; every problem is reported with its place. */
final class DashboardBinder {
    static final List<String> DASHBOARD_KEYS = List.of("signup", "session_idle", "session_max", "secure_cookie",
            "trust_forwarded_for");
    static final List<String> EXTEND_KEYS = List.of("starter_catalog");

    private DashboardBinder() {
    }

    static DashboardConfig dashboard(YamlFields top) {
        Optional<YamlFields> f = top.map("dashboard", "'dashboard'", "dashboard: {signup: closed, session_idle: 168h}");
        if (f.isEmpty()) {
            return DashboardConfig.DEFAULT;
        }
        YamlFields d = f.get();
        d.allowOnly(DASHBOARD_KEYS);
        DashboardConfig def = DashboardConfig.DEFAULT;
        boolean open = d.scalar("signup", "signup: closed").map(s -> {
            String v = s.text().trim().toLowerCase(Locale.ROOT);
            if (!v.equals("open") && !v.equals("closed")) {
                d.problems().add(s, d.label("signup") + " must be open or closed, got '" + s.text() + "'");
            }
            return v.equals("open");
        }).orElse(def.openSignup());
        Duration idle = duration(d, "session_idle", def.sessionIdle());
        Duration max = duration(d, "session_max", def.sessionMax());
        DashboardConfig.SecureCookie secure = d.scalar("secure_cookie", "secure_cookie: auto").map(s -> {
            switch (s.text().trim().toLowerCase(Locale.ROOT)) {
                case "auto":
                    return DashboardConfig.SecureCookie.AUTO;
                case "always", "true":
                    return DashboardConfig.SecureCookie.ALWAYS;
                case "never", "false":
                    return DashboardConfig.SecureCookie.NEVER;
                default:
                    d.problems().add(s, d.label("secure_cookie") + " must be auto, always or never, got '" + s.text() + "'");
                    return def.secureCookie();
            }
        }).orElse(def.secureCookie());
        boolean trust = d.bool("trust_forwarded_for").orElse(def.trustForwardedFor());
        return new DashboardConfig(open, idle, max, secure, trust);
    }

    /** {@code extend: {starter_catalog: true}}: whether the starter catalog is loaded on first start. */
    static boolean starterCatalog(YamlFields top) {
        Optional<YamlFields> f = top.map("extend", "'extend'", "extend: {starter_catalog: true}");
        if (f.isEmpty()) {
            return true;
        }
        f.get().allowOnly(EXTEND_KEYS);
        return f.get().bool("starter_catalog").orElse(true);
    }

    private static Duration duration(YamlFields d, String key, Duration fallback) {
        return d.scalar(key, key + ": 168h").flatMap(s -> {
            Optional<Duration> v = Durations.parse(s.text());
            if (v.isEmpty()) {
                d.problems().add(s, d.label(key) + " is not a duration: '" + s.text() + "' (expected " + Durations.EXPECTED + ")");
            }
            return v;
        }).orElse(fallback);
    }
}
