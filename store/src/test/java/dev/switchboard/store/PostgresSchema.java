package dev.switchboard.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;

/**
 * A throw-away schema on the test PostgreSQL server ({@code -Dswitchboard.test.postgres.url}, default the local
 * server's {@code test} database): {@link #create()} makes one and answers the URL that opens it, {@link #drop()}
 * removes it with everything in it.
 */
final class PostgresSchema {
    static final String SERVER = System.getProperty("switchboard.test.postgres.url",
            System.getenv().getOrDefault("SWITCHBOARD_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"));

    private String schema;

    String create() throws SQLException {
        schema = "sbtest_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16).toLowerCase(Locale.ROOT);
        execute("CREATE SCHEMA " + schema);
        return SERVER + (SERVER.contains("?") ? "&" : "?") + "currentSchema=" + schema;
    }

    void drop() throws SQLException {
        if (schema != null) {
            execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
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
