package dev.switchboard.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The defaults store contracts on a real PostgreSQL server, each test in a schema of its own that is dropped
 * afterwards (as {@link PostgresAccountStoreTest} does). Runs only with {@code -Dswitchboard.test.postgres=true}.
 */
@EnabledIfSystemProperty(named = "switchboard.test.postgres", matches = "true")
class PostgresDefaultsStoreTest extends DefaultsStoreContract {

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

    private static void execute(String statement) throws SQLException {
        DatabaseUrl url = DatabaseUrl.parse(SERVER);
        try (Connection c = DriverManager.getConnection(url.jdbcUrl(), url.user().orElse(null), url.password().orElse(null));
             Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }
}
