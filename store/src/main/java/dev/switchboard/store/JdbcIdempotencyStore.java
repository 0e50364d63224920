package dev.switchboard.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.switchboard.engine.idempotency.IdempotencyStore;
import dev.switchboard.engine.idempotency.StoredAnswer;
import dev.switchboard.wire.Json;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * {@link IdempotencyStore} on SQLite or PostgreSQL. A claim is an {@code INSERT ... ON CONFLICT DO NOTHING}
 * (exactly one of any number of concurrent requests, on any number of instances, inserts the row), then a
 * conditional {@code UPDATE} that takes over only an abandoned claim or an expired answer.
 */
public final class JdbcIdempotencyStore implements IdempotencyStore {
    private static final String PENDING = "pending";
    private static final String DONE = "done";
    private final Sql sql;

    public JdbcIdempotencyStore(Database database) {
        this.sql = new Sql(Objects.requireNonNull(database, "database").dataSource());
    }

    @Override
    public Claim claim(String scope, String fingerprint, String owner, Instant now, Instant leaseUntil, Instant expiresAt) {
        return sql.read("claim idempotency key", c -> {
            for (int tries = 0; tries < 3; tries++) {
                if (insert(c, scope, fingerprint, owner, leaseUntil, expiresAt) == 1
                        || takeOver(c, scope, fingerprint, owner, now, leaseUntil, expiresAt) == 1) {
                    return new Claim.Won();
                }
                try (PreparedStatement p = c.prepareStatement("SELECT fingerprint, state, request_id, status, content_type,"
                        + " streamed, headers, body FROM chat_idempotency WHERE scope = ?")) {
                    p.setString(1, scope);
                    try (ResultSet rs = p.executeQuery()) {
                        if (!rs.next()) {
                            continue; // released between the statements: claim again
                        }
                        if (!rs.getString("fingerprint").equals(fingerprint)) {
                            return new Claim.Mismatch();
                        }
                        if (!DONE.equals(rs.getString("state"))) {
                            return new Claim.Pending();
                        }
                        return new Claim.Done(new StoredAnswer(rs.getString("request_id"), rs.getInt("status"),
                                rs.getString("content_type"), rs.getInt("streamed") == 1, headers(rs.getString("headers")),
                                Base64.getDecoder().decode(rs.getString("body"))));
                    }
                }
            }
            return new Claim.Pending();
        });
    }

    private static int insert(Connection c, String scope, String fingerprint, String owner, Instant leaseUntil,
                              Instant expiresAt) throws SQLException {
        return Sql.update(c, "INSERT INTO chat_idempotency (scope, fingerprint, owner, state, lease_until, expires_at)"
                + " VALUES (?, ?, ?, '" + PENDING + "', ?, ?) ON CONFLICT (scope) DO NOTHING",
                scope, fingerprint, owner, leaseUntil, expiresAt);
    }

    private static int takeOver(Connection c, String scope, String fingerprint, String owner, Instant now,
                                Instant leaseUntil, Instant expiresAt) throws SQLException {
        return Sql.update(c, "UPDATE chat_idempotency SET fingerprint = ?, owner = ?, state = '" + PENDING
                + "', lease_until = ?, expires_at = ?, request_id = NULL, status = NULL, content_type = NULL,"
                + " streamed = NULL, headers = NULL, body = NULL WHERE scope = ? AND ((state = '" + PENDING
                + "' AND lease_until < ?) OR (state = '" + DONE + "' AND expires_at < ?))",
                fingerprint, owner, leaseUntil, expiresAt, scope, now, now);
    }

    @Override
    public void renew(Collection<String> scopes, String owner, Instant leaseUntil) {
        sql.read("renew idempotency claims", c -> {
            try (PreparedStatement p = c.prepareStatement("UPDATE chat_idempotency SET lease_until = ?"
                    + " WHERE scope = ? AND owner = ? AND state = '" + PENDING + "'")) {
                for (String scope : scopes) {
                    p.setLong(1, leaseUntil.toEpochMilli());
                    p.setString(2, scope);
                    p.setString(3, owner);
                    p.addBatch();
                }
                p.executeBatch();
            }
            return null;
        });
    }

    @Override
    public void complete(String scope, String owner, StoredAnswer answer, Instant expiresAt) {
        sql.read("store idempotent answer", c -> {
            try (PreparedStatement p = c.prepareStatement("UPDATE chat_idempotency SET state = '" + DONE + "', expires_at = ?,"
                    + " request_id = ?, status = ?, content_type = ?, streamed = ?, headers = ?, body = ?"
                    + " WHERE scope = ? AND owner = ? AND state = '" + PENDING + "'")) {
                p.setLong(1, expiresAt.toEpochMilli());
                p.setString(2, answer.requestId());
                p.setInt(3, answer.status());
                p.setString(4, answer.contentType());
                p.setInt(5, answer.streamed() ? 1 : 0);
                ArrayNode headers = Json.array();
                answer.headers().forEach(h -> headers.add(Json.array().add(h.name()).add(h.value())));
                p.setString(6, Json.write(headers));
                p.setString(7, Base64.getEncoder().encodeToString(answer.body()));
                p.setString(8, scope);
                p.setString(9, owner);
                return p.executeUpdate();
            }
        });
    }

    @Override
    public void release(String scope, String owner) {
        sql.read("release idempotency key", c -> {
            return Sql.update(c,
                    "DELETE FROM chat_idempotency WHERE scope = ? AND owner = ? AND state = '" + PENDING + "'", scope,
                    owner);
        });
    }

    @Override
    public int prune(Instant now) {
        return sql.read("prune idempotent answers", c -> {
            return Sql.update(c, "DELETE FROM chat_idempotency WHERE state = '" + DONE + "' AND expires_at < ?", now);
        });
    }

    private static List<StoredAnswer.Header> headers(String json) {
        List<StoredAnswer.Header> out = new ArrayList<>();
        for (JsonNode pair : Json.parse(json)) {
            out.add(new StoredAnswer.Header(pair.get(0).asText(), pair.get(1).asText()));
        }
        return out;
    }
}
