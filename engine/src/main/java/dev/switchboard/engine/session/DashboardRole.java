package dev.switchboard.engine.session;

import java.util.Locale;
import java.util.Optional;

/** What a signed-in user may do in the dashboard: {@code user}, or {@code admin} (the operator's pages and routes too). */
public enum DashboardRole {
    USER, ADMIN;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<DashboardRole> parse(String s) {
        return switch (s) {
            case "user" -> Optional.of(USER);
            case "admin" -> Optional.of(ADMIN);
            default -> Optional.empty();
        };
    }
}
