package dev.switchboard.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The account store contracts on a real PostgreSQL server, each test in a schema of its own that is
 * dropped afterwards, so concurrent builds on one server do not meet. Runs only with
 * {@code -Dswitchboard.test.postgres=true}; the server defaults to
 * {@code postgresql://postgres@127.0.0.1:5432/test}, overridden by the system property
 * {@code switchboard.test.postgres.url} or the variable {@code SWITCHBOARD_TEST_POSTGRES_URL}.
 */
@EnabledIfSystemProperty(named = "switchboard.test.postgres", matches = "true")
class PostgresAccountStoreTest extends AccountStoreContract {

    private static final String SERVER = System.getProperty("switchboard.test.postgres.url",
            System.getenv().getOrDefault("SWITCHBOARD_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"));

    private String schema;

    @Override
    protected String createDatabase() throws SQLException {
        schema = "sbtest_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16).toLowerCase(Locale.ROOT);
        execute("CREATE SCHEMA " + schema);
        return SERVER + (SERVER.contains("?") ? "&" : "?") + "currentSchema=" + schema;
    }

    @Override
    protected void dropDatabase() throws SQLException {
        execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }

    @Override
    protected void failLedgerInserts(Connection c) throws SQLException {
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
