package dev.switchboard.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
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
        try (PreparedStatement s = c.prepareStatement("SELECT value FROM settings WHERE name = ?")) {
            s.setString(1, name);
            return Rows.first(s, rs -> rs.getString(1));
        }
    }

    /**
     * Sets {@code name} unless it is set already; true for the call that set it. The primary key decides between
     * concurrent callers (two first starts): the loser inserts nothing.
     */
    static boolean setIfAbsent(Connection c, String name, String value, Instant at) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "INSERT INTO settings (name, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING")) {
            s.setString(1, name);
            s.setString(2, value);
            s.setLong(3, at.toEpochMilli());
            return s.executeUpdate() == 1;
        }
    }
}
