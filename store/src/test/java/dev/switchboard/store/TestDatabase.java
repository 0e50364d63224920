package dev.switchboard.store;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;

/**
 * A fresh, empty database for one contract test, on SQLite or PostgreSQL, and what differs between the two
 * where a test must reach under the store (a trigger that makes ledger inserts fail).
 *
 * <p>PostgreSQL runs only with {@code -Dswitchboard.test.postgres=true}; each test gets a schema of its own
 * that is dropped afterwards, so concurrent builds on one server do not meet. The server defaults to
 * {@code postgresql://postgres@127.0.0.1:5432/test}, overridden by the system property
 * {@code switchboard.test.postgres.url} or the variable {@code SWITCHBOARD_TEST_POSTGRES_URL}.
 */
sealed interface TestDatabase {

    /** The URL {@link Database#open} takes for this database. */
    String url();

    /** Removes the database; every handle on it is closed by then. */
    void drop() throws SQLException;

    /** Makes every later insert into {@code ledger} fail, to prove the transactions around it. */
    void failLedgerInserts(Connection c) throws SQLException;

    /** A database at {@code file}, inside a JUnit temporary directory that removes it. */
    static TestDatabase sqlite(Path file) {
        return new Sqlite(file);
    }

    /** A new schema on the test server. */
    static TestDatabase postgres() throws SQLException {
        String schema = "sbtest_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16).toLowerCase(Locale.ROOT);
        Postgres db = new Postgres(schema);
        Postgres.execute("CREATE SCHEMA " + schema);
        return db;
    }

    record Sqlite(Path file) implements TestDatabase {
        @Override
        public String url() {
            return "sqlite:" + file;
        }

        @Override
        public void drop() {
            // The temporary directory goes with its file.
        }

        @Override
        public void failLedgerInserts(Connection c) throws SQLException {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TRIGGER fail_ledger BEFORE INSERT ON ledger BEGIN SELECT RAISE(ABORT, 'ledger disabled by test'); END");
            }
        }
    }

    record Postgres(String schema) implements TestDatabase {
        private static final String SERVER = System.getProperty("switchboard.test.postgres.url",
                System.getenv().getOrDefault("SWITCHBOARD_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"));

        @Override
        public String url() {
            return SERVER + (SERVER.contains("?") ? "&" : "?") + "currentSchema=" + schema;
        }

        @Override
        public void drop() throws SQLException {
            execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }

        @Override
        public void failLedgerInserts(Connection c) throws SQLException {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE FUNCTION fail_ledger() RETURNS trigger LANGUAGE plpgsql AS"
                        + " $$ BEGIN RAISE EXCEPTION 'ledger disabled by test'; END $$");
                s.execute("CREATE TRIGGER fail_ledger BEFORE INSERT ON ledger FOR EACH ROW EXECUTE FUNCTION fail_ledger()");
            }
        }

        private static void execute(String statement) throws SQLException {
            DatabaseUrl url = DatabaseUrl.parse(SERVER);
            try (Connection c = DriverManager.getConnection(url.jdbcUrl(), url.user().orElse(null), url.password().orElse(null));
                 Statement s = c.createStatement()) {
                s.execute(statement);
            }
        }
    }
}
