package dev.switchboard.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.engine.responses.ResponseStore;
import dev.switchboard.engine.responses.StoredResponse;
import dev.switchboard.wire.Json;
import dev.switchboard.wire.responses.ResponsesItem;
import dev.switchboard.wire.responses.Responses;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link ResponseStore} on SQLite or PostgreSQL with the same portable SQL (schema in
 * {@code db/migration/V3__responses.sql}). Items and response objects are stored as JSON text; a
 * conversation is read in one recursive query along {@code previous_id}.
 *
 * <p>Deletion is two steps: hiding the row (the contract, one statement) and then, in a transaction of
 * its own, erasing hidden rows that nothing continues any more, walking up the chain. The second step is
 * best effort: when it loses a race with a response being saved onto the same chain, the rows stay
 * hidden and the next deletion on that chain erases them.
 */
public final class JdbcResponseStore implements ResponseStore {
    /** Deeper chains are not read (a guard against runaway recursion, far beyond any real conversation). */
    static final int MAX_CHAIN = 100_000;
    private static final Logger LOG = LoggerFactory.getLogger(JdbcResponseStore.class);
    private static final String COLUMNS = "r.id, r.owner_id, r.previous_id, r.model, r.status, r.input_items, r.body, r.created_at";

    private final Sql sql;

    public JdbcResponseStore(Database database) {
        this.sql = new Sql(Objects.requireNonNull(database, "database").dataSource());
    }

    @Override
    public void save(StoredResponse r) {
        ArrayNode items = Json.array();
        r.input().forEach(i -> items.add(Responses.writeItem(i)));
        sql.read("save response", c -> {
            try (PreparedStatement s = c.prepareStatement("INSERT INTO responses (id, owner_id, previous_id, model, status,"
                    + " input_items, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
                s.setString(1, r.id());
                s.setString(2, r.ownerId());
                Sql.setOptionalText(s, 3, r.previousId());
                s.setString(4, r.model());
                s.setString(5, r.status());
                s.setString(6, Json.write(items));
                s.setString(7, Json.write(r.response()));
                s.setLong(8, r.createdAt().toEpochMilli());
                s.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public Optional<StoredResponse> find(String ownerId, String id) {
        return sql.read("find response", c -> {
            return Rows.first(c, "SELECT " + COLUMNS
                    + " FROM responses r WHERE r.id = ? AND r.owner_id = ? AND r.deleted_at IS NULL", JdbcResponseStore::row, id, ownerId);
        });
    }

    @Override
    public List<StoredResponse> chain(String ownerId, String id) {
        return sql.read("read conversation", c -> {
            // Only the head must be visible: hidden ancestors still belong to the conversation.
            return Rows.all(c, "WITH RECURSIVE chain (id, previous_id, depth) AS ("
                    + " SELECT id, previous_id, 0 FROM responses WHERE id = ? AND owner_id = ? AND deleted_at IS NULL"
                    + " UNION ALL"
                    + " SELECT p.id, p.previous_id, chain.depth + 1 FROM responses p JOIN chain ON p.id = chain.previous_id"
                    + " WHERE p.owner_id = ? AND chain.depth < ?)"
                    + " SELECT " + COLUMNS + " FROM chain JOIN responses r ON r.id = chain.id ORDER BY chain.depth DESC",
                    JdbcResponseStore::row, id, ownerId, ownerId, MAX_CHAIN);
        });
    }

    @Override
    public boolean delete(String ownerId, String id, Instant at) {
        boolean hidden = sql.read("delete response", c -> {
            return Sql.update(c,
                    "UPDATE responses SET deleted_at = ? WHERE id = ? AND owner_id = ? AND deleted_at IS NULL", at, id,
                    ownerId) > 0;
        });
        if (hidden) {
            try {
                sql.transaction("erase deleted responses", c -> {
                    erase(c, id);
                    return null;
                });
            } catch (StoreException e) {
                LOG.atWarn().addKeyValue("response_id", id).log("deleted response kept hidden, not erased yet: {}",
                        e.getMessage());
            }
        }
        return hidden;
    }

    /** Erases {@code id} and then its ancestors, as long as each is hidden and nothing continues it. */
    private static void erase(Connection c, String id) throws SQLException {
        Optional<String> current = Optional.of(id);
        while (current.isPresent() && !hasContinuation(c, current.get())) {
            Optional<Optional<String>> previous = hiddenPrevious(c, current.get());
            if (previous.isEmpty()) {
                return;
            }
            Sql.update(c, "DELETE FROM responses WHERE id = ?", current.get());
            current = previous.get();
        }
    }

    private static boolean hasContinuation(Connection c, String id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT 1 FROM responses WHERE previous_id = ? LIMIT 1")) {
            s.setString(1, id);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** For a hidden row, the response it continues (maybe none); empty when the row is visible or gone. */
    private static Optional<Optional<String>> hiddenPrevious(Connection c, String id) throws SQLException {
        return Rows.first(c, "SELECT previous_id FROM responses WHERE id = ? AND deleted_at IS NOT NULL",
                rs -> Optional.ofNullable(rs.getString(1)), id);
    }

    private static StoredResponse row(ResultSet rs) throws SQLException {
        String id = rs.getString("id");
        JsonNode items = json(rs.getString("input_items"), id);
        List<ResponsesItem> input = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            input.add(Responses.readItem(items.get(i), "input_items[" + i + "]"));
        }
        if (!(json(rs.getString("body"), id) instanceof ObjectNode body)) {
            throw new StoreException("stored response " + id + " has no response object", null);
        }
        return new StoredResponse(id, rs.getString("owner_id"), Optional.ofNullable(rs.getString("previous_id")),
                rs.getString("model"), rs.getString("status"), Instant.ofEpochMilli(rs.getLong("created_at")), input, body);
    }

    /** Stored JSON was written by this class; unreadable JSON is a broken store, not a caller's mistake. */
    private static JsonNode json(String text, String id) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (IOException e) {
            throw new StoreException("stored response " + id + " is unreadable: " + e.getMessage(), e);
        }
    }
}
