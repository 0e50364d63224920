package dev.switchboard.store;

import dev.switchboard.engine.defaults.DefaultsStore;
import dev.switchboard.engine.defaults.StoredDefaults;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@link DefaultsStore} on SQLite or PostgreSQL (schema in {@code db/migration/V4__model_defaults.sql}).
 * The save is one upsert statement ({@code INSERT ... ON CONFLICT DO UPDATE}, the same syntax on both), so
 * two instances saving at once leave one complete row, never two or a mix.
 */
public final class JdbcDefaultsStore implements DefaultsStore {
    private final Sql sql;

    public JdbcDefaultsStore(Database database) {
        this.sql = new Sql(Objects.requireNonNull(database, "database").dataSource());
    }

    @Override
    public void put(StoredDefaults d) {
        sql.read("save model defaults", c -> {
            Sql.update(c, "INSERT INTO model_defaults (user_id, model_id, params, updated_at)"
                    + " VALUES (?, ?, ?, ?) ON CONFLICT (user_id, model_id)"
                    + " DO UPDATE SET params = excluded.params, updated_at = excluded.updated_at",
                    d.userId(), d.modelId(), d.paramsJson(), d.updatedAt());
            return null;
        });
    }

    @Override
    public Optional<StoredDefaults> find(String userId, String modelId) {
        return sql.read("find model defaults", c -> {
            try (PreparedStatement s = c.prepareStatement(
                    "SELECT params, updated_at FROM model_defaults WHERE user_id = ? AND model_id = ?")) {
                s.setString(1, userId);
                s.setString(2, modelId);
                return Rows.first(s, rs -> new StoredDefaults(userId, modelId, rs.getString("params"),
                        Instant.ofEpochMilli(rs.getLong("updated_at"))));
            }
        });
    }

    @Override
    public List<StoredDefaults> listFor(String userId) {
        return sql.read("list model defaults", c -> {
            try (PreparedStatement s = c.prepareStatement(
                    "SELECT model_id, params, updated_at FROM model_defaults WHERE user_id = ? ORDER BY model_id")) {
                s.setString(1, userId);
                return Rows.all(s, rs -> new StoredDefaults(userId, rs.getString("model_id"), rs.getString("params"),
                        Instant.ofEpochMilli(rs.getLong("updated_at"))));
            }
        });
    }

    @Override
    public boolean delete(String userId, String modelId) {
        return sql.read("delete model defaults", c -> {
            return Sql.update(c, "DELETE FROM model_defaults WHERE user_id = ? AND model_id = ?", userId, modelId) > 0;
        });
    }
}
