package dev.switchboard.testkit.it.soak;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;

/**
 * A fresh PostgreSQL schema of its own for one real-process run on the machine's shared server, dropped with all it
 * holds when closed, so runs never see each other's data. The server is the one the PostgreSQL tests use
 * ({@code switchboard.test.postgres.url}, else {@code SWITCHBOARD_TEST_POSTGRES_URL}, else the local {@code test}
 * database).
 */
public final class ScratchSchema implements AutoCloseable {
    /** The PostgreSQL server the schemas are made on, as a gateway {@code database:} URL. */
    public static final String POSTGRES = System.getProperty("switchboard.test.postgres.url",
            System.getenv().getOrDefault("SWITCHBOARD_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"));

    private final String name;

    private ScratchSchema(String name) {
        this.name = name;
    }

    /** Creates a schema named {@code prefix} and a random suffix. */
    public static ScratchSchema create(String prefix) throws SQLException {
        String name = prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 12).toLowerCase(Locale.ROOT);
        execute("CREATE SCHEMA " + name);
        return new ScratchSchema(name);
    }

    /** The schema's name. */
    public String name() {
        return name;
    }

    /** The gateway's {@code database:} URL for this schema. */
    public String databaseUrl() {
        return POSTGRES + (POSTGRES.contains("?") ? "&" : "?") + "currentSchema=" + name;
    }

    @Override
    public void close() throws SQLException {
        execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
    }

    private static void execute(String sql) throws SQLException {
        // postgresql://user@host:port/db -> jdbc:postgresql://host:port/db as user
        String rest = POSTGRES.substring("postgresql://".length());
        String user = rest.contains("@") ? rest.substring(0, rest.indexOf('@')) : "postgres";
        String hostAndDb = rest.substring(rest.indexOf('@') + 1);
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + hostAndDb, user.split(":")[0],
                user.contains(":") ? user.split(":")[1] : null); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
