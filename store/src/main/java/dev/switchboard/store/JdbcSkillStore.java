package dev.switchboard.store;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.switchboard.engine.extend.CatalogItem;
import dev.switchboard.engine.extend.CatalogStore;
import dev.switchboard.engine.extend.Installation;
import dev.switchboard.engine.extend.Skill;
import dev.switchboard.engine.extend.SkillStore;
import dev.switchboard.wire.Json;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** {@link SkillStore} on SQLite or PostgreSQL, beside {@link JdbcCatalogStore} on the same tables. */
public final class JdbcSkillStore implements SkillStore {
    private final Sql sql;

    public JdbcSkillStore(Database database) {
        this.sql = new Sql(Objects.requireNonNull(database, "database").dataSource());
    }

    @Override
    public Created create(Skill skill, int maxPerOwner) {
        return sql.transaction("create skill", c -> insertOwned(c, skill, maxPerOwner));
    }

    @Override
    public Created fork(Skill copy, int maxPerOwner) {
        String source = copy.forkedFrom().orElseThrow(() -> new IllegalArgumentException("a fork names its source"));
        return sql.transaction("fork skill", c -> {
            // counting first takes the source row's lock on PostgreSQL, so a fork of a deleted skill never lands
            try (PreparedStatement s = c.prepareStatement(
                    "UPDATE extend_items SET forks = forks + 1 WHERE kind = 'skill' AND id = ?")) {
                s.setString(1, source);
                if (s.executeUpdate() == 0) {
                    return Created.NO_SOURCE;
                }
            }
            Created created = insertOwned(c, copy, maxPerOwner);
            if (created != Created.CREATED) {
                c.rollback();
            }
            return created;
        });
    }

    /** Inserts a user's skill unless the owner is at the cap; the owner's row is locked while counting. */
    private static Created insertOwned(Connection c, Skill skill, int maxPerOwner) throws SQLException {
        String owner = skill.ownerId().orElseThrow(() -> new IllegalArgumentException("a user's skill has an owner"));
        // a no-op update takes the user's row lock on PostgreSQL: concurrent creates of one user count in turn
        Sql.update(c, "UPDATE users SET id = id WHERE id = ?", owner);
        try (PreparedStatement s = c.prepareStatement("SELECT COUNT(*) FROM extend_items WHERE kind = 'skill' AND owner_id = ?")) {
            s.setString(1, owner);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                if (rs.getLong(1) >= maxPerOwner) {
                    return Created.LIMIT_REACHED;
                }
            }
        }
        JdbcCatalogStore.save(c, skill, CatalogStore.OnConflict.KEEP);
        return Created.CREATED;
    }

    @Override
    public void recordUses(Map<String, Long> counts) {
        sql.transaction("count skill use", c -> {
            try (PreparedStatement s = c.prepareStatement(
                    "UPDATE extend_items SET use_count = use_count + ? WHERE kind = 'skill' AND id = ?")) {
                for (Map.Entry<String, Long> e : counts.entrySet()) {
                    s.setLong(1, e.getValue());
                    s.setString(2, e.getKey());
                    s.executeUpdate();
                }
            }
            return null;
        });
    }

    @Override
    public boolean install(String userId, String skillId, List<String> models, Instant at) {
        ArrayNode list = Json.array();
        models.forEach(list::add);
        return sql.transaction("install skill", c -> {
            if (JdbcCatalogStore.find(c, dev.switchboard.engine.extend.ItemKind.SKILL, skillId).isEmpty()) {
                return false;
            }
            Sql.update(c, "INSERT INTO skill_installs (user_id, kind, skill_id, models, installed_at) VALUES (?, 'skill', ?, ?, ?)"
                    + " ON CONFLICT (user_id, skill_id) DO UPDATE SET models = excluded.models", userId, skillId, Json.write(list), at);
            return true;
        });
    }

    @Override
    public boolean uninstall(String userId, String skillId) {
        return sql.read("uninstall skill", c -> {
            return Sql.update(c, "DELETE FROM skill_installs WHERE user_id = ? AND skill_id = ?", userId, skillId) > 0;
        });
    }

    @Override
    public List<Installation> installations(String userId) {
        return sql.read("list installed skills", c -> {
            try (PreparedStatement s = c.prepareStatement("SELECT " + ItemRows.SELECT.replace(" FROM extend_items i",
                    ", n.models AS installed_models, n.installed_at AS installed_at_ms FROM extend_items i")
                    + " JOIN skill_installs n ON n.kind = i.kind AND n.skill_id = i.id WHERE n.user_id = ?"
                    + " ORDER BY n.installed_at, n.skill_id")) {
                s.setString(1, userId);
                List<Installation> out = new ArrayList<>();
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        CatalogItem item = ItemRows.read(rs);
                        List<String> models = new ArrayList<>();
                        Json.parse(rs.getString("installed_models")).forEach(m -> models.add(m.asText()));
                        out.add(new Installation((Skill) item, models, Instant.ofEpochMilli(rs.getLong("installed_at_ms"))));
                    }
                }
                return out;
            }
        });
    }
}
