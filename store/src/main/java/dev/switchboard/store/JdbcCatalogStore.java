package dev.switchboard.store;

import dev.switchboard.engine.extend.Artifact;
import dev.switchboard.engine.extend.CatalogItem;
import dev.switchboard.engine.extend.CatalogStore;
import dev.switchboard.engine.extend.ItemKind;
import dev.switchboard.engine.extend.ListQuery;
import dev.switchboard.engine.extend.Page;
import dev.switchboard.engine.extend.TagCount;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * {@link CatalogStore} on SQLite or PostgreSQL (schema in {@code V11__extend_catalog.sql}). Every count changes
 * through one conditional statement in the same transaction as the row that justifies it (a like row, an
 * interaction), so concurrent requests on any number of instances never lose one.
 */
public final class JdbcCatalogStore implements CatalogStore {
    private static final int IN_CHUNK = 500;

    private final Sql sql;

    public JdbcCatalogStore(Database database) {
        this.sql = new Sql(Objects.requireNonNull(database, "database").dataSource());
    }

    @Override
    public boolean save(CatalogItem item, OnConflict onConflict) {
        return sql.transaction("save " + item.kind().wire(), c -> save(c, item, onConflict));
    }

    /** {@link #save} inside the caller's transaction. */
    static boolean save(Connection c, CatalogItem item, OnConflict onConflict) throws SQLException {
        String conflict = onConflict == OnConflict.KEEP ? "DO NOTHING" : "DO UPDATE SET " + ItemRows.REPLACED;
        int written;
        try (PreparedStatement s = c.prepareStatement("INSERT INTO extend_items (" + ItemRows.COLUMNS + ") VALUES ("
                + ItemRows.PLACEHOLDERS + ") ON CONFLICT (kind, id) " + conflict)) {
            ItemRows.bind(s, item);
            written = s.executeUpdate();
        }
        if (written == 0) {
            return false;
        }
        Sql.update(c, "DELETE FROM extend_tags WHERE kind = ? AND item_id = ?", item.kind().wire(), item.id());
        try (PreparedStatement s = c.prepareStatement("INSERT INTO extend_tags (kind, item_id, tag) VALUES (?, ?, ?)")) {
            for (String tag : item.tags()) {
                s.setString(1, item.kind().wire());
                s.setString(2, item.id());
                s.setString(3, tag);
                s.addBatch();
            }
            s.executeBatch();
        }
        return true;
    }

    @Override
    public Optional<CatalogItem> find(ItemKind kind, String id) {
        return sql.read("find " + kind.wire(), c -> find(c, kind, id));
    }

    static Optional<CatalogItem> find(Connection c, ItemKind kind, String id) throws SQLException {
        return Rows.first(c, "SELECT " + ItemRows.SELECT + " WHERE i.kind = ? AND i.id = ?", ItemRows::read, kind.wire(), id);
    }

    @Override
    public List<CatalogItem> findAll(ItemKind kind, Collection<String> ids) {
        List<String> all = List.copyOf(new HashSet<>(ids));
        return sql.read("find " + kind.wire(), c -> {
            List<CatalogItem> out = new ArrayList<>();
            for (int from = 0; from < all.size(); from += IN_CHUNK) {
                List<String> chunk = all.subList(from, Math.min(all.size(), from + IN_CHUNK));
                try (PreparedStatement s = c.prepareStatement("SELECT " + ItemRows.SELECT + " WHERE i.kind = ? AND i.id IN ("
                        + marks(chunk.size()) + ")")) {
                    s.setString(1, kind.wire());
                    for (int i = 0; i < chunk.size(); i++) {
                        s.setString(i + 2, chunk.get(i));
                    }
                    try (ResultSet rs = s.executeQuery()) {
                        while (rs.next()) {
                            out.add(ItemRows.read(rs));
                        }
                    }
                }
            }
            return out;
        });
    }

    @Override
    public Page<CatalogItem> list(ItemKind kind, Audience audience, ListQuery query) {
        List<Object> args = new ArrayList<>();
        StringBuilder where = new StringBuilder(" WHERE i.kind = ?");
        args.add(kind.wire());
        switch (audience) {
            case Audience.Listed l -> {
                where.append(" AND i.visibility = 'public'");
                if (kind == ItemKind.PLUGIN) {
                    where.append(" AND i.file_name IS NOT NULL");
                }
            }
            case Audience.OwnedBy o -> {
                where.append(" AND i.owner_id = ?");
                args.add(o.userId());
            }
            case Audience.Operator op -> {
                // everything
            }
        }
        if (query.verified()) {
            where.append(" AND i.verified = 1");
        }
        query.section().ifPresent(s -> {
            where.append(" AND i.section = ?");
            args.add(s);
        });
        for (String word : query.words()) {
            where.append(" AND i.search_text LIKE ? ESCAPE '!'");
            args.add("%" + word.replace("!", "!!").replace("%", "!%").replace("_", "!_") + "%");
        }
        if (!query.tags().isEmpty()) {
            where.append(" AND EXISTS (SELECT 1 FROM extend_tags t WHERE t.kind = i.kind AND t.item_id = i.id AND t.tag IN (")
                    .append(marks(query.tags().size())).append("))");
            args.addAll(query.tags());
        }
        String order = switch (query.sort()) {
            case POPULAR -> " ORDER BY (i.likes + i.use_count + i.forks + i.interactions) DESC, i.official DESC, i.sort_name, i.id";
            case RECENT -> " ORDER BY i.created_at DESC, i.id DESC";
            case LIKES -> " ORDER BY i.likes DESC, i.sort_name, i.id";
            case NAME -> " ORDER BY i.sort_name, i.id";
        };
        return sql.read("list " + kind.wire(), c -> {
            long total;
            try (PreparedStatement s = c.prepareStatement("SELECT COUNT(*) FROM extend_items i" + where)) {
                bindAll(s, args);
                try (ResultSet rs = s.executeQuery()) {
                    rs.next();
                    total = rs.getLong(1);
                }
            }
            String paging = query.paged() ? " LIMIT " + query.limit() + " OFFSET " + ((long) query.page() * query.limit()) : "";
            List<CatalogItem> items = new ArrayList<>();
            try (PreparedStatement s = c.prepareStatement("SELECT " + ItemRows.SELECT + where + order + paging)) {
                bindAll(s, args);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        items.add(ItemRows.read(rs));
                    }
                }
            }
            return new Page<>(items, total, query.page(), query.paged() ? query.limit() : items.size());
        });
    }

    @Override
    public List<TagCount> tags(ItemKind kind, Optional<String> search, int limit) {
        return sql.read("list tags", c -> {
            String filter = search.isPresent() ? " AND t.tag LIKE ? ESCAPE '!'" : "";
            try (PreparedStatement s = c.prepareStatement("SELECT t.tag, COUNT(*) AS n FROM extend_tags t JOIN extend_items i"
                    + " ON i.kind = t.kind AND i.id = t.item_id WHERE t.kind = ? AND i.visibility = 'public'" + filter
                    + " GROUP BY t.tag ORDER BY n DESC, t.tag LIMIT " + limit)) {
                s.setString(1, kind.wire());
                if (search.isPresent()) {
                    s.setString(2, "%" + search.get().replace("!", "!!").replace("%", "!%").replace("_", "!_") + "%");
                }
                List<TagCount> out = new ArrayList<>();
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        out.add(new TagCount(rs.getString(1), rs.getLong(2)));
                    }
                }
                return out;
            }
        });
    }

    @Override
    public boolean delete(ItemKind kind, String id) {
        return sql.transaction("delete " + kind.wire(), c -> {
            Optional<String> sha = Optional.empty();
            try (PreparedStatement s = c.prepareStatement("SELECT sha256 FROM extend_items WHERE kind = ? AND id = ?")) {
                s.setString(1, kind.wire());
                s.setString(2, id);
                try (ResultSet rs = s.executeQuery()) {
                    if (!rs.next()) {
                        return false;
                    }
                    sha = Optional.ofNullable(rs.getString(1));
                }
            }
            // tags, likes and installations go with the row (ON DELETE CASCADE)
            Sql.update(c, "DELETE FROM extend_items WHERE kind = ? AND id = ?", kind.wire(), id);
            if (sha.isPresent()) {
                dropUnusedArtifact(c, sha.get());
            }
            return true;
        });
    }

    @Override
    public OptionalLong like(ItemKind kind, String id, String userId, Instant at) {
        return sql.transaction("like " + kind.wire(), c -> {
            if (!exists(c, kind, id)) {
                return OptionalLong.empty();
            }
            int inserted;
            try (PreparedStatement s = c.prepareStatement("INSERT INTO extend_likes (kind, item_id, user_id, created_at)"
                    + " VALUES (?, ?, ?, ?) ON CONFLICT (kind, item_id, user_id) DO NOTHING")) {
                s.setString(1, kind.wire());
                s.setString(2, id);
                s.setString(3, userId);
                s.setLong(4, at.toEpochMilli());
                inserted = s.executeUpdate();
            }
            return OptionalLong.of(adjustLikes(c, kind, id, inserted));
        });
    }

    @Override
    public OptionalLong unlike(ItemKind kind, String id, String userId) {
        return sql.transaction("unlike " + kind.wire(), c -> {
            if (!exists(c, kind, id)) {
                return OptionalLong.empty();
            }
            int deleted;
            try (PreparedStatement s = c.prepareStatement(
                    "DELETE FROM extend_likes WHERE kind = ? AND item_id = ? AND user_id = ?")) {
                s.setString(1, kind.wire());
                s.setString(2, id);
                s.setString(3, userId);
                deleted = s.executeUpdate();
            }
            return OptionalLong.of(adjustLikes(c, kind, id, -deleted));
        });
    }

    /** Adds {@code delta} (possibly 0) to the likes in one statement and answers the result. */
    private static long adjustLikes(Connection c, ItemKind kind, String id, int delta) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "UPDATE extend_items SET likes = likes + ? WHERE kind = ? AND id = ? RETURNING likes")) {
            s.setInt(1, delta);
            s.setString(2, kind.wire());
            s.setString(3, id);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    @Override
    public Set<String> likedBy(String userId, ItemKind kind, Collection<String> ids) {
        List<String> all = List.copyOf(new HashSet<>(ids));
        return sql.read("read likes", c -> {
            Set<String> out = new HashSet<>();
            for (int from = 0; from < all.size(); from += IN_CHUNK) {
                List<String> chunk = all.subList(from, Math.min(all.size(), from + IN_CHUNK));
                try (PreparedStatement s = c.prepareStatement("SELECT item_id FROM extend_likes WHERE user_id = ? AND kind = ?"
                        + " AND item_id IN (" + marks(chunk.size()) + ")")) {
                    s.setString(1, userId);
                    s.setString(2, kind.wire());
                    for (int i = 0; i < chunk.size(); i++) {
                        s.setString(i + 3, chunk.get(i));
                    }
                    try (ResultSet rs = s.executeQuery()) {
                        while (rs.next()) {
                            out.add(rs.getString(1));
                        }
                    }
                }
            }
            return out;
        });
    }

    @Override
    public OptionalLong interact(String characterId) {
        return sql.read("count interaction", c -> {
            try (PreparedStatement s = c.prepareStatement("UPDATE extend_items SET interactions = interactions + 1"
                    + " WHERE kind = 'character' AND id = ? RETURNING interactions")) {
                s.setString(1, characterId);
                try (ResultSet rs = s.executeQuery()) {
                    return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
                }
            }
        });
    }

    @Override
    public Attached attachArtifact(String pluginId, Artifact artifact, byte[] content, Instant at) {
        try {
            return attach(pluginId, artifact, content, at);
        } catch (FileNameTaken e) {
            return Attached.FILE_NAME_TAKEN;
        }
    }

    private Attached attach(String pluginId, Artifact artifact, byte[] content, Instant at) {
        return sql.transaction("store artifact", c -> {
            Optional<String> previous;
            try (PreparedStatement s = c.prepareStatement("SELECT sha256 FROM extend_items WHERE kind = 'plugin' AND id = ?")) {
                s.setString(1, pluginId);
                try (ResultSet rs = s.executeQuery()) {
                    if (!rs.next()) {
                        return Attached.NO_SUCH_PLUGIN;
                    }
                    previous = Optional.ofNullable(rs.getString(1));
                }
            }
            try (PreparedStatement s = c.prepareStatement("SELECT 1 FROM extend_items WHERE file_name = ? AND NOT (kind = 'plugin' AND id = ?)")) {
                s.setString(1, artifact.fileName());
                s.setString(2, pluginId);
                try (ResultSet rs = s.executeQuery()) {
                    if (rs.next()) {
                        return Attached.FILE_NAME_TAKEN;
                    }
                }
            }
            try (PreparedStatement s = c.prepareStatement("INSERT INTO extend_artifacts (sha256, size, content, created_at)"
                    + " VALUES (?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING")) {
                s.setString(1, artifact.sha256());
                s.setLong(2, content.length);
                s.setBytes(3, content);
                s.setLong(4, at.toEpochMilli());
                s.executeUpdate();
            }
            try (PreparedStatement s = c.prepareStatement("UPDATE extend_items SET file_name = ?, sha256 = ?, content_type = ?,"
                    + " updated_at = ? WHERE kind = 'plugin' AND id = ?")) {
                s.setString(1, artifact.fileName());
                s.setString(2, artifact.sha256());
                s.setString(3, artifact.contentType());
                s.setLong(4, at.toEpochMilli());
                s.setString(5, pluginId);
                try {
                    s.executeUpdate();
                } catch (SQLException e) {
                    if (Sql.uniqueViolation(e).isPresent()) {
                        throw new FileNameTaken(e);
                    }
                    throw e;
                }
            }
            if (previous.isPresent() && !previous.get().equals(artifact.sha256())) {
                dropUnusedArtifact(c, previous.get());
            }
            return Attached.ATTACHED;
        });
    }

    @Override
    public Optional<StoredArtifact> artifact(String fileName) {
        return sql.read("read artifact", c -> {
            try (PreparedStatement s = c.prepareStatement("SELECT i.file_name, i.content_type, i.sha256, a.size, a.content"
                    + " FROM extend_items i JOIN extend_artifacts a ON a.sha256 = i.sha256 WHERE i.file_name = ?")) {
                s.setString(1, fileName);
                try (ResultSet rs = s.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    return Optional.of(new StoredArtifact(new Artifact(rs.getString(1), rs.getString(2), rs.getLong(4),
                            rs.getString(3)), rs.getBytes(5)));
                }
            }
        });
    }

    @Override
    public boolean mark(String name, Instant at) {
        return sql.read("set marker", c -> SettingsTable.setIfAbsent(c, name, at.toString(), at));
    }

    @Override
    public boolean marked(String name) {
        return sql.read("read marker", c -> SettingsTable.value(c, name).isPresent());
    }

    private static boolean exists(Connection c, ItemKind kind, String id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT 1 FROM extend_items WHERE kind = ? AND id = ?")) {
            s.setString(1, kind.wire());
            s.setString(2, id);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static void dropUnusedArtifact(Connection c, String sha) throws SQLException {
        Sql.update(c, "DELETE FROM extend_artifacts WHERE sha256 = ?"
                + " AND NOT EXISTS (SELECT 1 FROM extend_items WHERE sha256 = ?)", sha, sha);
    }

    static void bindAll(PreparedStatement s, List<Object> args) throws SQLException {
        for (int i = 0; i < args.size(); i++) {
            s.setString(i + 1, (String) args.get(i));
        }
    }

    static String marks(int n) {
        return String.join(", ", java.util.Collections.nCopies(n, "?"));
    }

    /** A concurrent upload took the file name between the check and the update. */
    private static final class FileNameTaken extends RuntimeException {
        private static final long serialVersionUID = 1L;

        FileNameTaken(Throwable cause) {
            super("file name taken", cause);
        }
    }
}
