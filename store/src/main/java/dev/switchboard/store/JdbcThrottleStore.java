package dev.switchboard.store;

import dev.switchboard.engine.session.ThrottleStore;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * {@link ThrottleStore} on SQLite or PostgreSQL: one row per subject, counted by a single upsert so that
 * concurrent failures on several instances all count.
 */
public final class JdbcThrottleStore implements ThrottleStore {
    private final Sql sql;

    public JdbcThrottleStore(Database database) {
        this.sql = new Sql(Objects.requireNonNull(database, "database").dataSource());
    }

    @Override
    public Count hit(String subject, Instant at, Duration window) {
        long now = at.toEpochMilli();
        long cutoff = now - window.toMillis();
        return sql.read("count sign-in event", c -> {
            // SET expressions see the row as it was, so both CASEs test the old window start.
            try (PreparedStatement p = c.prepareStatement("INSERT INTO login_throttle (subject, events, window_start)"
                    + " VALUES (?, 1, ?) ON CONFLICT (subject) DO UPDATE SET"
                    + " events = CASE WHEN login_throttle.window_start <= ? THEN 1 ELSE login_throttle.events + 1 END,"
                    + " window_start = CASE WHEN login_throttle.window_start <= ? THEN ? ELSE login_throttle.window_start END"
                    + " RETURNING events, window_start")) {
                p.setString(1, subject);
                p.setLong(2, now);
                p.setLong(3, cutoff);
                p.setLong(4, cutoff);
                p.setLong(5, now);
                try (ResultSet rs = p.executeQuery()) {
                    rs.next();
                    return new Count(rs.getInt(1), Instant.ofEpochMilli(rs.getLong(2)).plus(window));
                }
            }
        });
    }

    @Override
    public Count count(String subject, Instant now, Duration window) {
        return sql.read("read sign-in events", c -> {
            try (PreparedStatement p = c.prepareStatement("SELECT events, window_start FROM login_throttle WHERE subject = ?")) {
                p.setString(1, subject);
                try (ResultSet rs = p.executeQuery()) {
                    if (!rs.next()) {
                        return new Count(0, now);
                    }
                    Instant ends = Instant.ofEpochMilli(rs.getLong(2)).plus(window);
                    return now.isBefore(ends) ? new Count(rs.getInt(1), ends) : new Count(0, now);
                }
            }
        });
    }

    @Override
    public void clear(String subject) {
        sql.read("clear sign-in events", c -> {
            return Sql.update(c, "DELETE FROM login_throttle WHERE subject = ?", subject);
        });
    }

    @Override
    public int prune(Instant now, Duration window) {
        return sql.read("prune sign-in events", c -> {
            return Sql.update(c, "DELETE FROM login_throttle WHERE window_start <= ?",
                    now.toEpochMilli() - window.toMillis());
        });
    }
}
