package dev.switchboard.store;

import dev.switchboard.engine.account.AccountException;
import dev.switchboard.engine.account.AccountStore;
import dev.switchboard.engine.account.AdminKeyStore;
import dev.switchboard.engine.account.ApiKey;
import dev.switchboard.engine.account.Ids;
import dev.switchboard.engine.account.BudgetPeriod;
import dev.switchboard.engine.account.KeyBudget;
import dev.switchboard.engine.account.KeyHash;
import dev.switchboard.engine.account.KeyLimits;
import dev.switchboard.engine.account.KeyScope;
import dev.switchboard.engine.account.LedgerEntry;
import dev.switchboard.engine.account.PasswordHash;
import dev.switchboard.engine.account.StoredKey;
import dev.switchboard.engine.account.Usd;
import dev.switchboard.engine.account.User;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@link AccountStore} and {@link AdminKeyStore} on SQLite or PostgreSQL, with the same portable SQL
 * for both (schema in {@code db/migration/V1__accounts.sql}). Every method is one short
 * transaction or one statement; nothing is cached, so what one instance writes the next read on
 * any instance sees.
 */
public final class JdbcAccountStore implements AccountStore, AdminKeyStore {

    private static final String USER_COLUMNS = "id, name, email, plan, balance_nanos, created_at, plan_expires_at";
    private static final String KEY_COLUMNS =
            "id, user_id, name, prefix, models, endpoints, rpm, daily_tokens, expires_at, revoked_at, created_at, tpm,"
                    + " max_parallel, budget_nanos, budget_period";
    private static final String LEDGER_COLUMNS =
            "id, user_id, kind, amount_nanos, balance_after_nanos, request_id, note, created_at";
    private static final String ADMIN_KEY_SETTING = "admin_key_sha256";
    private static final String INITIAL_BALANCE_NOTE = "initial balance";
    // Scope lists are stored one entry per line; KeyScope forbids whitespace in entries.
    private static final String LIST_SEPARATOR = "\n";

    private final Sql sql;

    public JdbcAccountStore(Database database) {
        this.sql = new Sql(Objects.requireNonNull(database, "database").dataSource());
    }

    @Override
    public void createUser(User user, Optional<PasswordHash> passwordHash) {
        sql.transaction("create user", c -> {
            try (PreparedStatement s = c.prepareStatement("INSERT INTO users (id, name, email, password_hash, plan,"
                    + " balance_nanos, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
                s.setString(1, user.id());
                s.setString(2, user.name());
                Sql.setOptionalText(s, 3, user.email());
                Sql.setOptionalText(s, 4, passwordHash.map(PasswordHash::encoded));
                s.setString(5, user.plan());
                s.setLong(6, user.balanceNanos());
                s.setLong(7, user.createdAt().toEpochMilli());
                s.executeUpdate();
            } catch (SQLException e) {
                throw Sql.uniqueViolation(e).map(JdbcAccountStore::userConflict).orElseThrow(() -> e);
            }
            if (user.balanceNanos() > 0) {
                insertLedger(c, new LedgerEntry(Ids.next("led", user.createdAt()), user.id(), LedgerEntry.Kind.CREDIT,
                        user.balanceNanos(), user.balanceNanos(), Optional.empty(), Optional.of(INITIAL_BALANCE_NOTE),
                        user.createdAt()));
            }
            return null;
        });
    }

    @Override
    public Optional<User> findUser(String userId) {
        return sql.read("find user", c -> queryUser(c, "SELECT " + USER_COLUMNS + " FROM users WHERE id = ?", userId));
    }

    @Override
    public Optional<User> findUserByName(String name) {
        return sql.read("find user", c -> queryUser(c, "SELECT " + USER_COLUMNS + " FROM users WHERE name = ?", name));
    }

    @Override
    public List<User> users(int offset, int limit) {
        return sql.read("list users", c -> {
            return Rows.all(c, "SELECT " + USER_COLUMNS + " FROM users ORDER BY created_at, id LIMIT ? OFFSET ?",
                    JdbcAccountStore::user, limit, offset);
        });
    }

    @Override
    public long countUsers() {
        return sql.read("count users", c -> Rows.first(c, "SELECT COUNT(*) FROM users", rs -> rs.getLong(1)).orElseThrow());
    }

    @Override
    public boolean hasUsers() {
        return sql.read("count users", c -> Rows.first(c, "SELECT 1 FROM users LIMIT 1", rs -> true).isPresent());
    }

    @Override
    public Optional<PasswordHash> passwordHash(String userId) {
        // a user created without a password has a NULL hash
        return sql.read("read password hash", c -> Rows.first(c, "SELECT password_hash FROM users WHERE id = ?",
                rs -> Optional.ofNullable(rs.getString(1)), userId)).flatMap(hash -> hash.map(PasswordHash::new));
    }

    @Override
    public LedgerEntry addCredit(String userId, long amountNanos, Optional<String> note, Optional<String> idempotencyKey,
                                 Instant at) {
        if (amountNanos <= 0) {
            throw new IllegalArgumentException("amountNanos: expected a positive amount, got " + amountNanos);
        }
        try {
            return credit(userId, amountNanos, note, idempotencyKey, at);
        } catch (StoreException e) {
            // A concurrent credit with the same key committed first (unique index): this one is its repeat.
            if (idempotencyKey.isPresent() && e.getCause() instanceof SQLException se && Sql.uniqueViolation(se).isPresent()) {
                return sql.read("read credit", c -> creditWithKey(c, userId, idempotencyKey.get()))
                        .map(first -> sameAmount(first, amountNanos)).orElseThrow(() -> e);
            }
            throw e;
        }
    }

    private LedgerEntry credit(String userId, long amountNanos, Optional<String> note, Optional<String> idempotencyKey,
                               Instant at) {
        return sql.transaction("add credit", c -> {
            if (idempotencyKey.isPresent()) {
                Optional<LedgerEntry> first = creditWithKey(c, userId, idempotencyKey.get());
                if (first.isPresent()) {
                    return sameAmount(first.get(), amountNanos);
                }
            }
            long balance;
            // One conditional update: atomic under concurrency, and it refuses to overflow the column.
            try (PreparedStatement s = c.prepareStatement("UPDATE users SET balance_nanos = balance_nanos + ?"
                    + " WHERE id = ? AND balance_nanos <= ? RETURNING balance_nanos")) {
                s.setLong(1, amountNanos);
                s.setString(2, userId);
                s.setLong(3, Long.MAX_VALUE - amountNanos);
                try (ResultSet rs = s.executeQuery()) {
                    if (!rs.next()) {
                        throw userExists(c, userId)
                                ? AccountException.conflict("amount_usd", "amount_usd: the balance would exceed "
                                        + Usd.format(Long.MAX_VALUE) + " USD")
                                : AccountException.notFound("no user with id " + userId);
                    }
                    balance = rs.getLong(1);
                }
            }
            LedgerEntry entry = new LedgerEntry(Ids.next("led", at), userId, LedgerEntry.Kind.CREDIT, amountNanos, balance,
                    Optional.empty(), note, at);
            insertLedger(c, entry, idempotencyKey);
            return entry;
        });
    }

    private static Optional<LedgerEntry> creditWithKey(Connection c, String userId, String key) throws SQLException {
        return Rows.first(c, "SELECT " + LEDGER_COLUMNS + " FROM ledger WHERE user_id = ? AND idempotency_key = ?",
                JdbcAccountStore::ledgerEntry, userId, key);
    }

    private static LedgerEntry sameAmount(LedgerEntry first, long amountNanos) {
        if (first.amountNanos() != amountNanos) {
            throw AccountException.conflict("idempotency_key", "idempotency_key: already used for a credit of "
                    + Usd.format(first.amountNanos()) + " USD (" + first.id() + "); use a new key for a different amount");
        }
        return first;
    }

    @Override
    public boolean setPlan(String userId, String plan, Optional<Instant> expiresAt) {
        return sql.read("set plan", c -> {
            try (PreparedStatement s = c.prepareStatement("UPDATE users SET plan = ?, plan_expires_at = ? WHERE id = ?")) {
                s.setString(1, plan);
                Sql.setOptionalLong(s, 2, expiresAt.map(Instant::toEpochMilli));
                s.setString(3, userId);
                return s.executeUpdate() > 0;
            }
        });
    }

    @Override
    public List<LedgerEntry> ledger(String userId, int limit) {
        return sql.read("read ledger", c -> {
            return Rows.all(c, "SELECT " + LEDGER_COLUMNS
                    + " FROM ledger WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ?", JdbcAccountStore::ledgerEntry,
                    userId, limit);
        });
    }

    @Override
    public void createKey(ApiKey key, KeyHash hash) {
        sql.transaction("create key", c -> {
            if (!userExists(c, key.userId())) {
                throw AccountException.notFound("no user with id " + key.userId());
            }
            try (PreparedStatement s = c.prepareStatement("INSERT INTO api_keys (" + KEY_COLUMNS
                    + ", key_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                s.setString(1, key.id());
                s.setString(2, key.userId());
                s.setString(3, key.name());
                s.setString(4, key.prefix());
                s.setString(5, String.join(LIST_SEPARATOR, key.scope().models()));
                s.setString(6, String.join(LIST_SEPARATOR, key.scope().endpoints()));
                KeyLimits l = key.limits();
                Sql.setOptionalLong(s, 7, boxed(l.rpm()));
                Sql.setOptionalLong(s, 8, boxed(l.dailyTokens()));
                Sql.setOptionalLong(s, 9, key.expiresAt().map(Instant::toEpochMilli));
                Sql.setOptionalLong(s, 10, key.revokedAt().map(Instant::toEpochMilli));
                s.setLong(11, key.createdAt().toEpochMilli());
                Sql.setOptionalLong(s, 12, boxed(l.tpm()));
                Sql.setOptionalLong(s, 13, boxed(l.maxParallel()));
                Sql.setOptionalLong(s, 14, l.budget().map(KeyBudget::nanos));
                Sql.setOptionalText(s, 15, l.budget().map(b -> b.period().wireName()));
                s.setString(16, hash.hex());
                s.executeUpdate();
            } catch (SQLException e) {
                if (Sql.uniqueViolation(e).isPresent()) {
                    throw AccountException.conflict("id", "a key with this id or secret already exists");
                }
                throw e;
            }
            return null;
        });
    }

    @Override
    public Optional<StoredKey> findKeyByHash(KeyHash hash) {
        return sql.read("find key", c -> {
            return Rows.first(c, "SELECT " + KEY_COLUMNS + ", key_hash FROM api_keys WHERE key_hash = ?",
                    rs -> new StoredKey(apiKey(rs), new KeyHash(rs.getString("key_hash"))), hash.hex());
        });
    }

    @Override
    public Optional<ApiKey> findKey(String keyId) {
        return sql.read("find key", c -> {
            return Rows.first(c, "SELECT " + KEY_COLUMNS + " FROM api_keys WHERE id = ?", JdbcAccountStore::apiKey,
                    keyId);
        });
    }

    @Override
    public boolean updateKey(ApiKey key) {
        return sql.read("update key", c -> {
            try (PreparedStatement s = c.prepareStatement("UPDATE api_keys SET name = ?, models = ?, endpoints = ?, rpm = ?,"
                    + " daily_tokens = ?, tpm = ?, max_parallel = ?, budget_nanos = ?, budget_period = ?, expires_at = ?"
                    + " WHERE id = ?")) {
                KeyLimits l = key.limits();
                s.setString(1, key.name());
                s.setString(2, String.join(LIST_SEPARATOR, key.scope().models()));
                s.setString(3, String.join(LIST_SEPARATOR, key.scope().endpoints()));
                Sql.setOptionalLong(s, 4, boxed(l.rpm()));
                Sql.setOptionalLong(s, 5, boxed(l.dailyTokens()));
                Sql.setOptionalLong(s, 6, boxed(l.tpm()));
                Sql.setOptionalLong(s, 7, boxed(l.maxParallel()));
                Sql.setOptionalLong(s, 8, l.budget().map(KeyBudget::nanos));
                Sql.setOptionalText(s, 9, l.budget().map(b -> b.period().wireName()));
                Sql.setOptionalLong(s, 10, key.expiresAt().map(Instant::toEpochMilli));
                s.setString(11, key.id());
                return s.executeUpdate() > 0;
            }
        });
    }

    @Override
    public List<ApiKey> keysOf(String userId) {
        return sql.read("list keys", c -> {
            return Rows.all(c, "SELECT " + KEY_COLUMNS + " FROM api_keys WHERE user_id = ? ORDER BY created_at, id",
                    JdbcAccountStore::apiKey, userId);
        });
    }

    @Override
    public boolean revokeKey(String keyId, Instant at) {
        return sql.read("revoke key", c -> {
            // COALESCE keeps the first revocation time, which makes the call idempotent.
            return Sql.update(c, "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?", at,
                    keyId) > 0;
        });
    }

    @Override
    public Optional<KeyHash> adminKeyHash() {
        return sql.read("read admin key", c -> SettingsTable.value(c, ADMIN_KEY_SETTING).map(KeyHash::new));
    }

    @Override
    public boolean saveAdminKeyHashIfAbsent(KeyHash hash, Instant at) {
        return sql.read("save admin key", c -> SettingsTable.setIfAbsent(c, ADMIN_KEY_SETTING, hash.hex(), at));
    }

    private static AccountException userConflict(String violated) {
        if (violated.contains("ux_users_name") || violated.contains("users.name")) {
            return AccountException.conflict("name", "name: already taken by another user");
        }
        if (violated.contains("ux_users_email") || violated.contains("users.email")) {
            return AccountException.conflict("email", "email: already used by another user");
        }
        return AccountException.conflict("id", "id: a user with this id already exists");
    }

    private static boolean userExists(Connection c, String userId) throws SQLException {
        return Rows.first(c, "SELECT 1 FROM users WHERE id = ?", rs -> true, userId).isPresent();
    }

    private static Optional<User> queryUser(Connection c, String query, String value) throws SQLException {
        return Rows.first(c, query, JdbcAccountStore::user, value);
    }

    private static User user(ResultSet rs) throws SQLException {
        return new User(rs.getString("id"), rs.getString("name"), Optional.ofNullable(rs.getString("email")),
                rs.getString("plan"), rs.getLong("balance_nanos"), Instant.ofEpochMilli(rs.getLong("created_at")),
                Sql.optionalLong(rs, "plan_expires_at").map(Instant::ofEpochMilli));
    }

    private static void insertLedger(Connection c, LedgerEntry e) throws SQLException {
        insertLedger(c, e, Optional.empty());
    }

    /** Writes one ledger entry; shared with the billing store, whose charges go to the same table. */
    static void insertLedger(Connection c, LedgerEntry e, Optional<String> idempotencyKey) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO ledger (" + LEDGER_COLUMNS
                + ", idempotency_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            s.setString(1, e.id());
            s.setString(2, e.userId());
            s.setString(3, e.kind().name());
            s.setLong(4, e.amountNanos());
            s.setLong(5, e.balanceAfterNanos());
            Sql.setOptionalText(s, 6, e.requestId());
            Sql.setOptionalText(s, 7, e.note());
            s.setLong(8, e.createdAt().toEpochMilli());
            Sql.setOptionalText(s, 9, idempotencyKey);
            s.executeUpdate();
        }
    }

    static LedgerEntry ledgerEntry(ResultSet rs) throws SQLException {
        return new LedgerEntry(rs.getString("id"), rs.getString("user_id"), LedgerEntry.Kind.valueOf(rs.getString("kind")),
                rs.getLong("amount_nanos"), rs.getLong("balance_after_nanos"), Optional.ofNullable(rs.getString("request_id")),
                Optional.ofNullable(rs.getString("note")), Instant.ofEpochMilli(rs.getLong("created_at")));
    }

    private static ApiKey apiKey(ResultSet rs) throws SQLException {
        KeyScope scope = new KeyScope(list(rs.getString("models")), list(rs.getString("endpoints")));
        BudgetPeriod period = Optional.ofNullable(rs.getString("budget_period")).map(BudgetPeriod::parse)
                .orElse(BudgetPeriod.TOTAL);
        Optional<KeyBudget> budget = Sql.optionalLong(rs, "budget_nanos").map(nanos -> new KeyBudget(nanos, period));
        KeyLimits limits = new KeyLimits(unboxed(Sql.optionalLong(rs, "rpm")), unboxed(Sql.optionalLong(rs, "tpm")),
                unboxed(Sql.optionalLong(rs, "daily_tokens")), unboxed(Sql.optionalLong(rs, "max_parallel")), budget);
        return new ApiKey(rs.getString("id"), rs.getString("user_id"), rs.getString("name"), rs.getString("prefix"), scope,
                limits,
                Sql.optionalLong(rs, "expires_at").map(Instant::ofEpochMilli),
                Sql.optionalLong(rs, "revoked_at").map(Instant::ofEpochMilli),
                Instant.ofEpochMilli(rs.getLong("created_at")));
    }

    private static Optional<Long> boxed(OptionalLong v) {
        return v.isPresent() ? Optional.of(v.getAsLong()) : Optional.empty();
    }

    private static OptionalLong unboxed(Optional<Long> v) {
        return v.map(OptionalLong::of).orElse(OptionalLong.empty());
    }

    private static List<String> list(String stored) {
        return stored.isEmpty() ? List.of() : Arrays.asList(stored.split(LIST_SEPARATOR));
    }
}
