package dev.switchboard.testkit.it.soak;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.testkit.soak.Soak;
import dev.switchboard.testkit.soak.SoakReport;
import dev.switchboard.testkit.soak.SoakSettings;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The fault soak ({@link Soak}) against the gateway as a real process: a small run in every build (1,500 requests,
 * one {@code kill -9}); the full one on demand with {@code -Dswitchboard.soak.requests=20000
 * -Dswitchboard.soak.kills=3} (docs/soak.md). On PostgreSQL with {@code -Dswitchboard.test.postgres=true}.
 */
class SoakIT {
    private static final int REQUESTS = Integer.getInteger("switchboard.soak.requests", 1500);
    private static final int KILLS = Integer.getInteger("switchboard.soak.kills", 1);
    private static final long SEED = Long.getLong("switchboard.soak.seed", 20261124L);
    private static final String POSTGRES = System.getProperty("switchboard.test.postgres.url",
            System.getenv().getOrDefault("SWITCHBOARD_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"));

    /** Kept after the run (config, database, the gateway's log), so a violation can be traced by its request id. */
    private static Path dir(String database) throws java.io.IOException {
        return java.nio.file.Files.createDirectories(Path.of("target", "soak", database + "-" + System.currentTimeMillis()));
    }

    private static SoakSettings settings(String database, Path dir) {
        return new SoakSettings(REQUESTS, 32, 70, 5, KILLS, SEED, database, dir);
    }

    @Test
    void onSqliteEveryOutcomeIsOneTheContractAllows() throws Exception {
        SoakReport report = Soak.run(settings("sqlite", dir("sqlite")));
        System.out.println(report.render());
        assertThat(report.violations()).as(report.render()).isEmpty();
    }

    @Test
    @EnabledIfSystemProperty(named = "switchboard.test.postgres", matches = "true")
    void onPostgresqlEveryOutcomeIsOneTheContractAllows() throws Exception {
        String schema = "soak_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12).toLowerCase(Locale.ROOT);
        execute("CREATE SCHEMA " + schema);
        try {
            String url = POSTGRES + (POSTGRES.contains("?") ? "&" : "?") + "currentSchema=" + schema;
            SoakReport report = Soak.run(settings(url, dir("postgresql")));
            System.out.println(report.render());
            assertThat(report.violations()).as(report.render()).isEmpty();
        } finally {
            execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
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
