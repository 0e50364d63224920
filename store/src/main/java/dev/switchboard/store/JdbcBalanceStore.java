package dev.switchboard.store;

import dev.switchboard.engine.account.Ids;
import dev.switchboard.engine.account.LedgerEntry;
import dev.switchboard.engine.billing.Balance;
import dev.switchboard.engine.billing.BalanceStore;
import dev.switchboard.engine.billing.Hold;
import dev.switchboard.engine.billing.Reservation;
import dev.switchboard.engine.billing.SpendCap;
import dev.switchboard.engine.billing.Settled;
import dev.switchboard.engine.billing.UsageQuery;
import dev.switchboard.engine.billing.UsageRecord;
import dev.switchboard.engine.billing.UsageTotal;
import dev.switchboard.model.Usage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@link BalanceStore} on SQLite or PostgreSQL (schema in {@code db/migration/V20__billing.sql}). A user's
 * row carries {@code balance_nanos} and {@code held_nanos}; every change of either is one conditional
 * {@code UPDATE} inside a short transaction, so PostgreSQL's row lock (or SQLite's single writer) orders
 * concurrent requests of one user and none can reserve what another already holds. Settlement writes the
 * charge, its ledger entry and the usage record in one transaction; the usage record's primary key (the
 * request id) makes a repeated settlement roll back whole.
 *
 * <p>On PostgreSQL, reserving and settling are one statement each (data-modifying {@code WITH} queries in
 * autocommit): one round trip instead of three and six, and the user's row lock held for one statement instead of
 * across those round trips, which is what orders (and so limits) one user's concurrent requests. The statement is
 * atomic as the transaction was: a repeated settlement's usage record violates its key and nothing of it stays.
 * SQLite has no data-modifying {@code WITH}; there the transactions remain (in-process, no round trips), and
 * concurrent reservations, raises, releases and settlements are committed together ({@link GroupCommit}: each in its
 * own savepoint, in arrival order, one {@code COMMIT} per batch), which is what makes them cheap there.
 */
public final class JdbcBalanceStore implements BalanceStore {
    private static final String USAGE_COLUMNS = "request_id, user_id, key_id, endpoint, requested_model, model, provider, streamed,"
            + " input_tokens, output_tokens, reasoning_tokens, cache_read_tokens, cache_write_5m_tokens, cache_write_1h_tokens,"
            + " cost_nanos, charged_nanos, plan, provenance, status, latency_ms, created_at";
    private static final long DAY_MILLIS = Duration.ofDays(1).toMillis();

    /** Holds the amount if what is not yet held covers it, and records the hold, in one statement. */
    private static final String RESERVE_POSTGRES = "WITH held AS (UPDATE users SET held_nanos = held_nanos + ?"
            + " WHERE id = ? AND balance_nanos - held_nanos >= ? RETURNING id)"
            + " INSERT INTO holds (request_id, user_id, key_id, amount_nanos, expires_at, created_at)"
            + " SELECT ?, id, ?, ?, ?, ? FROM held";
    /**
     * Settles in one statement: the hold deleted; the user's row locked and read (its latest version: FOR UPDATE
     * waits for other changes and sees them); the charge capped at what the balance has beyond other holds; the
     * row updated; a ledger entry when something was charged; the usage record with the amount charged.
     */
    private static final String SETTLE_POSTGRES = "WITH released AS (DELETE FROM holds WHERE request_id = ? RETURNING amount_nanos),"
            + " freed AS (SELECT COALESCE(SUM(amount_nanos), 0) AS amount FROM released),"
            + " locked AS (SELECT u.balance_nanos, u.held_nanos - f.amount AS held_by_others, f.amount AS released"
            + "   FROM users u, freed f WHERE u.id = ? FOR UPDATE OF u),"
            + " charge AS (SELECT released, GREATEST(0, LEAST(?, balance_nanos - held_by_others)) AS charged FROM locked),"
            + " updated AS (UPDATE users u SET held_nanos = u.held_nanos - c.released, balance_nanos = u.balance_nanos - c.charged"
            + "   FROM charge c WHERE u.id = ? RETURNING u.balance_nanos, c.charged),"
            + " ledger_entry AS (INSERT INTO ledger (id, user_id, kind, amount_nanos, balance_after_nanos, request_id, note, created_at)"
            + "   SELECT ?, ?, 'CHARGE', -charged, balance_nanos, ?, ?, ? FROM updated WHERE charged > 0),"
            + " usage_record AS (INSERT INTO usage_records (" + USAGE_COLUMNS + ")"
            + "   SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, charged, ?, ?, ?, ?, ? FROM updated)"
            + " SELECT balance_nanos, charged FROM updated";

    private final Sql sql;
    private final boolean postgres;

    public JdbcBalanceStore(Database database) {
        this.sql = new Sql(Objects.requireNonNull(database, "database"));
        this.postgres = database.kind() == Database.Kind.POSTGRESQL;
    }

    @Override
    public Reservation reserve(Hold hold) {
        if (postgres && hold.keyBudget().isEmpty()) {
            // one statement when no key budget has to be summed: the common case on the hot path
            return sql.read("reserve credit", c -> {
                try (PreparedStatement s = c.prepareStatement(RESERVE_POSTGRES)) {
                    s.setLong(1, hold.amountNanos());
                    s.setString(2, hold.userId());
                    s.setLong(3, hold.amountNanos());
                    s.setString(4, hold.requestId());
                    s.setString(5, hold.keyId());
                    s.setLong(6, hold.amountNanos());
                    s.setLong(7, hold.expiresAt().toEpochMilli());
                    s.setLong(8, hold.createdAt().toEpochMilli());
                    return s.executeUpdate() == 1 ? Reservation.HELD : Reservation.SHORT_OF_BALANCE;
                } catch (SQLException e) {
                    if (Sql.uniqueViolation(e).isPresent()) {
                        throw new IllegalStateException("request " + hold.requestId() + " already holds credit");
                    }
                    throw e;
                }
            });
        }
        try {
            return sql.grouped("reserve credit", c -> {
                if (!holdMore(c, hold.userId(), hold.amountNanos())) {
                    return Reservation.SHORT_OF_BALANCE;
                }
                // holdMore took the user's row lock (SQLite: the write lock): every hold of the key is ordered behind it.
                checkBudget(c, hold, hold.amountNanos());
                try {
                    insertHold(c, hold);
                } catch (SQLException e) {
                    if (Sql.uniqueViolation(e).isPresent()) {
                        throw new IllegalStateException("request " + hold.requestId() + " already holds credit");
                    }
                    throw e;
                }
                return Reservation.HELD;
            });
        } catch (OverBudget e) {
            return Reservation.OVER_KEY_BUDGET;
        }
    }

    @Override
    public Reservation raise(Hold hold) {
        try {
            return sql.grouped("raise credit hold", c -> {
                Optional<Long> current = heldFor(c, hold.requestId());
                long already = current.orElse(0L);
                if (already >= hold.amountNanos()) {
                    return Reservation.HELD;
                }
                if (!holdMore(c, hold.userId(), hold.amountNanos() - already)) {
                    return Reservation.SHORT_OF_BALANCE;
                }
                checkBudget(c, hold, hold.amountNanos() - already);
                if (current.isPresent()) {
                    // Guarded by the amount read: if the sweeper released the hold meanwhile, undo everything.
                    try (PreparedStatement s = c.prepareStatement("UPDATE holds SET amount_nanos = ?, expires_at = ?"
                            + " WHERE request_id = ? AND amount_nanos = ?")) {
                        s.setLong(1, hold.amountNanos());
                        s.setLong(2, hold.expiresAt().toEpochMilli());
                        s.setString(3, hold.requestId());
                        s.setLong(4, already);
                        if (s.executeUpdate() != 1) {
                            throw new SQLException("the hold of " + hold.requestId() + " changed while it was raised");
                        }
                    }
                } else {
                    insertHold(c, hold);
                }
                return Reservation.HELD;
            });
        } catch (OverBudget e) {
            return Reservation.OVER_KEY_BUDGET;
        }
    }

    /** Thrown inside a reservation's transaction to roll it back whole when the key's budget refuses it. */
    private static final class OverBudget extends RuntimeException {
        private static final long serialVersionUID = 1L;

        OverBudget() {
            super("over the key's budget", null, false, false);
        }
    }

    /**
     * Refuses ({@link OverBudget}) when the hold's key has a budget and its spend in the period plus its open holds
     * plus {@code more} would exceed it. Runs after the user's row was locked by this transaction, so it sees every
     * hold and charge of the key committed before and none can be added until this one ends.
     */
    private static void checkBudget(Connection c, Hold hold, long more) throws SQLException {
        if (hold.keyBudget().isEmpty()) {
            return;
        }
        SpendCap cap = hold.keyBudget().get();
        if (keySpend(c, hold.keyId(), cap.periodStart()) + more > cap.capNanos()) {
            throw new OverBudget();
        }
    }

    @Override
    public long keySpend(String keyId, Instant since) {
        return sql.read("read key spend", c -> keySpend(c, keyId, since));
    }

    private static long keySpend(Connection c, String keyId, Instant since) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT"
                + " (SELECT COALESCE(SUM(charged_nanos), 0) FROM usage_records WHERE key_id = ? AND created_at >= ?),"
                + " (SELECT COALESCE(SUM(amount_nanos), 0) FROM holds WHERE key_id = ?)")) {
            s.setString(1, keyId);
            s.setLong(2, since.toEpochMilli());
            s.setString(3, keyId);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1) + rs.getLong(2);
            }
        }
    }

    @Override
    public Settled settle(UsageRecord record) {
        try {
            if (postgres) {
                return sql.read("settle request", c -> settleInOneStatement(c, record));
            }
            return sql.grouped("settle request", c -> {
                long held = deleteHold(c, record.requestId()).map(Released::amount).orElse(0L);
                long balance;
                long heldByOthers;
                // Releasing first also takes the row lock that orders this against every other change of the user.
                try (PreparedStatement s = c.prepareStatement("UPDATE users SET held_nanos = held_nanos - ? WHERE id = ?"
                        + " RETURNING balance_nanos, held_nanos")) {
                    s.setLong(1, held);
                    s.setString(2, record.userId());
                    try (ResultSet rs = s.executeQuery()) {
                        if (!rs.next()) {
                            throw new SQLException("no user " + record.userId() + " to settle request " + record.requestId());
                        }
                        balance = rs.getLong(1);
                        heldByOthers = rs.getLong(2);
                    }
                }
                long charged = Math.max(0, Math.min(record.chargedNanos(), balance - heldByOthers));
                if (charged > 0) {
                    try (PreparedStatement s = c.prepareStatement("UPDATE users SET balance_nanos = balance_nanos - ? WHERE id = ?"
                            + " RETURNING balance_nanos")) {
                        s.setLong(1, charged);
                        s.setString(2, record.userId());
                        try (ResultSet rs = s.executeQuery()) {
                            rs.next();
                            balance = rs.getLong(1);
                        }
                    }
                    JdbcAccountStore.insertLedger(c, new LedgerEntry(Ids.next("led", record.createdAt()), record.userId(),
                            LedgerEntry.Kind.CHARGE, -charged, balance, Optional.of(record.requestId()),
                            Optional.of(record.model()), record.createdAt()), Optional.empty());
                }
                insertUsage(c, record.withCharged(charged));
                return new Settled(charged, balance, false);
            });
        } catch (StoreException e) {
            if (e.getCause() instanceof SQLException se && Sql.uniqueViolation(se).isPresent()) {
                long balance = balance(record.userId()).map(Balance::balanceNanos).orElse(0L);
                return new Settled(0, balance, true);
            }
            throw e;
        }
    }

    @Override
    public boolean release(String requestId) {
        return sql.grouped("release credit hold", c -> release(c, requestId, Optional.empty()));
    }

    @Override
    public int releaseExpired(Instant now, int max) {
        List<String> expired = sql.read("find expired holds", c -> Rows.all(c,
                "SELECT request_id FROM holds WHERE expires_at <= ? ORDER BY expires_at LIMIT ?", rs -> rs.getString(1), now, max));
        int released = 0;
        for (String id : expired) {
            if (sql.grouped("release expired hold", c -> release(c, id, Optional.of(now)))) {
                released++;
            }
        }
        return released;
    }

    @Override
    public Optional<Balance> balance(String userId) {
        return sql.read("read balance", c -> {
            return Rows.first(c, "SELECT balance_nanos, held_nanos FROM users WHERE id = ?",
                    rs -> new Balance(rs.getLong(1), rs.getLong(2)), userId);
        });
    }

    /** How many holds are open (all users); for tests and {@code /metrics}. */
    public long openHolds() {
        return sql.read("count holds", c -> Rows.first(c, "SELECT COUNT(*) FROM holds", rs -> rs.getLong(1)).orElseThrow());
    }

    @Override
    public Optional<UsageRecord> usage(String requestId) {
        return sql.read("read usage", c -> {
            return Rows.first(c, "SELECT " + USAGE_COLUMNS + " FROM usage_records WHERE request_id = ?",
                    JdbcBalanceStore::usageRecord, requestId);
        });
    }

    @Override
    public List<UsageRecord> usage(UsageQuery query) {
        Where where = where(query);
        return sql.read("list usage", c -> {
            try (PreparedStatement s = c.prepareStatement("SELECT " + USAGE_COLUMNS + " FROM usage_records" + where.sql
                    + " ORDER BY created_at DESC, request_id DESC LIMIT ? OFFSET ?")) {
                int i = where.bind(s);
                s.setInt(i++, query.limit());
                s.setInt(i, query.offset());
                List<UsageRecord> out = new ArrayList<>();
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        out.add(usageRecord(rs));
                    }
                }
                return out;
            }
        });
    }

    @Override
    public List<UsageTotal> totals(UsageQuery query, UsageTotal.GroupBy groupBy) {
        String group = switch (groupBy) {
            case DAY -> "created_at / " + DAY_MILLIS;
            case MODEL -> "model";
            case KEY -> "key_id";
        };
        return sums(query, Optional.of(group), groupBy == UsageTotal.GroupBy.DAY);
    }

    @Override
    public UsageTotal total(UsageQuery query) {
        // Without GROUP BY an aggregate always answers one row (of NULL sums, read as 0, when nothing matches).
        return sums(query, Optional.empty(), false).getFirst();
    }

    private List<UsageTotal> sums(UsageQuery query, Optional<String> group, boolean days) {
        Where where = where(query);
        return sql.read("sum usage", c -> {
            try (PreparedStatement s = c.prepareStatement("SELECT " + group.orElse("'total'") + " AS g, COUNT(*),"
                    + " SUM(input_tokens), SUM(output_tokens), SUM(reasoning_tokens), SUM(cache_read_tokens),"
                    + " SUM(cache_write_5m_tokens + cache_write_1h_tokens), SUM(cost_nanos), SUM(charged_nanos)"
                    + " FROM usage_records" + where.sql + group.map(g -> " GROUP BY " + g + " ORDER BY 1").orElse(""))) {
                where.bind(s);
                List<UsageTotal> out = new ArrayList<>();
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        String g = days ? LocalDate.ofEpochDay(rs.getLong(1)).toString() : rs.getString(1);
                        out.add(new UsageTotal(g, rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5), rs.getLong(6),
                                rs.getLong(7), rs.getLong(8), rs.getLong(9)));
                    }
                }
                return out;
            }
        });
    }

    /** A WHERE clause and the values it binds, in order. */
    private record Where(String sql, List<Object> values) {
        int bind(PreparedStatement s) throws SQLException {
            int i = 1;
            for (Object v : values) {
                if (v instanceof Long l) {
                    s.setLong(i++, l);
                } else {
                    s.setString(i++, (String) v);
                }
            }
            return i;
        }
    }

    private static Where where(UsageQuery q) {
        List<String> clauses = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        q.userId().ifPresent(v -> {
            clauses.add("user_id = ?");
            values.add(v);
        });
        q.keyId().ifPresent(v -> {
            clauses.add("key_id = ?");
            values.add(v);
        });
        q.model().ifPresent(v -> {
            clauses.add("model = ?");
            values.add(v);
        });
        q.from().ifPresent(v -> {
            clauses.add("created_at >= ?");
            values.add(v.toEpochMilli());
        });
        q.to().ifPresent(v -> {
            clauses.add("created_at < ?");
            values.add(v.toEpochMilli());
        });
        return new Where(clauses.isEmpty() ? "" : " WHERE " + String.join(" AND ", clauses), values);
    }

    /** Holds {@code amount} more of the user's balance if what is not yet held covers it: one conditional update. */
    private static boolean holdMore(Connection c, String userId, long amount) throws SQLException {
        return Sql.update(c, "UPDATE users SET held_nanos = held_nanos + ?"
                + " WHERE id = ? AND balance_nanos - held_nanos >= ?", amount, userId, amount) == 1;
    }

    private static void insertHold(Connection c, Hold hold) throws SQLException {
        Sql.update(c, "INSERT INTO holds (request_id, user_id, key_id, amount_nanos, expires_at, created_at)"
                + " VALUES (?, ?, ?, ?, ?, ?)", hold.requestId(), hold.userId(), hold.keyId(), hold.amountNanos(),
                hold.expiresAt(), hold.createdAt());
    }

    private static Optional<Long> heldFor(Connection c, String requestId) throws SQLException {
        return Rows.first(c, "SELECT amount_nanos FROM holds WHERE request_id = ?", rs -> rs.getLong(1), requestId);
    }

    private record Released(String userId, long amount) {
    }

    /** Deletes the hold (only if expired at {@code expiredAt}, when given) and returns what it held. */
    private static Optional<Released> deleteHold(Connection c, String requestId, Optional<Instant> expiredAt) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("DELETE FROM holds WHERE request_id = ?"
                + (expiredAt.isPresent() ? " AND expires_at <= ?" : "") + " RETURNING user_id, amount_nanos")) {
            s.setString(1, requestId);
            if (expiredAt.isPresent()) {
                s.setLong(2, expiredAt.get().toEpochMilli());
            }
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? Optional.of(new Released(rs.getString(1), rs.getLong(2))) : Optional.empty();
            }
        }
    }

    private static Optional<Released> deleteHold(Connection c, String requestId) throws SQLException {
        return deleteHold(c, requestId, Optional.empty());
    }

    private static boolean release(Connection c, String requestId, Optional<Instant> expiredAt) throws SQLException {
        Optional<Released> released = deleteHold(c, requestId, expiredAt);
        if (released.isEmpty()) {
            return false;
        }
        Sql.update(c, "UPDATE users SET held_nanos = held_nanos - ? WHERE id = ?", released.get().amount(),
                released.get().userId());
        return true;
    }

    private static void insertUsage(Connection c, UsageRecord r) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO usage_records (" + USAGE_COLUMNS
                + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            bindUsage(s, 1, r, true);
            s.executeUpdate();
        }
    }

    /**
     * Binds {@code r}'s columns in {@link #USAGE_COLUMNS} order from parameter {@code first} on. Without
     * {@code withCharged}, {@code charged_nanos} is left out: the settling statement computes it.
     */
    private static void bindUsage(PreparedStatement s, int first, UsageRecord r, boolean withCharged) throws SQLException {
        Usage u = r.usage();
        Sql.bind(s, first, r.requestId(), r.userId(), r.keyId(), r.endpoint(), r.requestedModel(), r.model(), r.provider(),
                r.streamed(), u.inputTokens(), u.outputTokens(), u.reasoningTokens(), u.cacheReadTokens(),
                u.cacheWrite5mTokens(), u.cacheWrite1hTokens(), r.costNanos());
        int next = first + 15;
        if (withCharged) {
            s.setLong(next++, r.chargedNanos());
        }
        Sql.setOptionalText(s, next++, r.plan());
        Sql.bind(s, next, u.provenance().name(), r.status(), r.latency().toMillis(), r.createdAt());
    }

    private static Settled settleInOneStatement(Connection c, UsageRecord r) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(SETTLE_POSTGRES)) {
            s.setString(1, r.requestId());
            s.setString(2, r.userId());
            s.setLong(3, r.chargedNanos());
            s.setString(4, r.userId());
            s.setString(5, Ids.next("led", r.createdAt()));
            s.setString(6, r.userId());
            s.setString(7, r.requestId());
            s.setString(8, r.model());
            s.setLong(9, r.createdAt().toEpochMilli());
            bindUsage(s, 10, r, false);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("no user " + r.userId() + " to settle request " + r.requestId());
                }
                return new Settled(rs.getLong(2), rs.getLong(1), false);
            }
        }
    }

    private static UsageRecord usageRecord(ResultSet rs) throws SQLException {
        Usage u = new Usage(rs.getLong("input_tokens"), rs.getLong("output_tokens"), rs.getLong("reasoning_tokens"),
                rs.getLong("cache_read_tokens"), rs.getLong("cache_write_5m_tokens"), rs.getLong("cache_write_1h_tokens"),
                Usage.Provenance.valueOf(rs.getString("provenance")));
        return new UsageRecord(rs.getString("request_id"), rs.getString("user_id"), rs.getString("key_id"),
                rs.getString("endpoint"), rs.getString("requested_model"), rs.getString("model"), rs.getString("provider"),
                rs.getInt("streamed") != 0, u, rs.getLong("cost_nanos"), rs.getLong("charged_nanos"),
                Optional.ofNullable(rs.getString("plan")), rs.getString("status"), Duration.ofMillis(rs.getLong("latency_ms")),
                Instant.ofEpochMilli(rs.getLong("created_at")));
    }
}
