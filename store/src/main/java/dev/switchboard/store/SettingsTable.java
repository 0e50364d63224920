package dev.switchboard.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/**
 * The {@code settings} table: named values the gateway writes once (the admin key's hash, one-time markers such as
 * "starter catalog loaded"), on a connection the caller's {@link Sql} call holds.
 */
final class SettingsTable {
    private SettingsTable() {
    }

    /** The value named {@code name}, or empty when none is set. */
    static Optional<String> value(Connection c, String name) throws SQLException {
        return Rows.first(c, "SELECT value FROM settings WHERE name = ?", rs -> rs.getString(1), name);
    }

    /**
     * Sets {@code name} unless it is set already; true for the call that set it. The primary key decides between
     * concurrent callers (two first starts): the loser inserts nothing.
     */
    static boolean setIfAbsent(Connection c, String name, String value, Instant at) throws SQLException {
        return Sql.update(c,
                "INSERT INTO settings (name, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING", name,
                value, at) == 1;
    }
}
