package dev.switchboard.store;

import dev.switchboard.engine.account.KeyHash;
import dev.switchboard.engine.session.Session;
import dev.switchboard.engine.session.SessionStore;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/** {@link SessionStore} on SQLite or PostgreSQL (schema in {@code V10__dashboard_sessions.sql}); nothing is cached. */
public final class JdbcSessionStore implements SessionStore {
    private static final String COLUMNS = "id, user_id, csrf_token, created_at, last_seen_at, expires_at";

    private final Sql sql;

    public JdbcSessionStore(Database database) {
        this.sql = new Sql(Objects.requireNonNull(database, "database").dataSource());
    }

    @Override
    public void create(Session s, KeyHash tokenHash) {
        sql.read("create session", c -> {
            return Sql.update(c,
                    "INSERT INTO dashboard_sessions (token_hash, " + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?)",
                    tokenHash.hex(), s.id(), s.userId(), s.csrfToken(), s.createdAt(), s.lastSeenAt(), s.expiresAt());
        });
    }

    @Override
    public Optional<Session> find(KeyHash tokenHash) {
        return sql.read("find session", c -> {
            try (PreparedStatement p = c.prepareStatement("SELECT " + COLUMNS + " FROM dashboard_sessions WHERE token_hash = ?")) {
                p.setString(1, tokenHash.hex());
                try (ResultSet rs = p.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    return Optional.of(new Session(rs.getString("id"), rs.getString("user_id"), rs.getString("csrf_token"),
                            Instant.ofEpochMilli(rs.getLong("created_at")), Instant.ofEpochMilli(rs.getLong("last_seen_at")),
                            Instant.ofEpochMilli(rs.getLong("expires_at"))));
                }
            }
        });
    }

    @Override
    public void touch(KeyHash tokenHash, Instant at, Instant olderThan) {
        sql.read("touch session", c -> {
            return Sql.update(c,
                    "UPDATE dashboard_sessions SET last_seen_at = ? WHERE token_hash = ? AND last_seen_at < ?", at,
                    tokenHash.hex(), olderThan);
        });
    }

    @Override
    public boolean delete(KeyHash tokenHash) {
        return sql.read("delete session", c -> {
            return Sql.update(c, "DELETE FROM dashboard_sessions WHERE token_hash = ?", tokenHash.hex()) > 0;
        });
    }

    @Override
    public int deleteAllOf(String userId) {
        return sql.read("delete sessions", c -> {
            return Sql.update(c, "DELETE FROM dashboard_sessions WHERE user_id = ?", userId);
        });
    }

    @Override
    public int deleteExpired(Instant now, Instant idleCutoff) {
        return sql.read("delete expired sessions", c -> {
            return Sql.update(c, "DELETE FROM dashboard_sessions WHERE expires_at <= ? OR last_seen_at < ?", now,
                    idleCutoff);
        });
    }
}
