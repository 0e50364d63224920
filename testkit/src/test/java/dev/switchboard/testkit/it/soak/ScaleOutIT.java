package dev.switchboard.testkit.it.soak;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.testkit.soak.ScaleOut;
import java.nio.file.Files;
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
 * Three gateway processes on this machine's PostgreSQL (a schema of the run's own) and Redis (a key prefix of the
 * run's own), under a mixed load with failover, a rate-limited key, billing, a {@code kill -9} and restart, a
 * Responses chain across instances and a key revoked on one instance ({@link ScaleOut}; docs/deploy.md). The small
 * run (400 requests) is part of {@code ./mvnw verify} with PostgreSQL and Redis switched on; the full one on demand
 * with {@code -Dswitchboard.scale.requests=4000}.
 */
@EnabledIfSystemProperty(named = "switchboard.test.postgres", matches = "true")
@EnabledIfSystemProperty(named = "switchboard.test.redis", matches = "true")
class ScaleOutIT {
    private static final int REQUESTS = Integer.getInteger("switchboard.scale.requests", 400);
    private static final int RPM = Integer.getInteger("switchboard.scale.rpm", 12);
    private static final long SEED = Long.getLong("switchboard.scale.seed", 20261124L);
    private static final String POSTGRES = System.getProperty("switchboard.test.postgres.url",
            System.getenv().getOrDefault("SWITCHBOARD_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"));
    private static final String REDIS = System.getProperty("switchboard.test.redis.url", "redis://127.0.0.1:6379");

    @Test
    void threeInstancesKeepNoStateAnotherInstanceNeeds() throws Exception {
        String schema = "scale_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12).toLowerCase(Locale.ROOT);
        execute("CREATE SCHEMA " + schema);
        try {
            Path dir = Files.createDirectories(Path.of("target", "scale-out", "run-" + System.currentTimeMillis()));
            String url = POSTGRES + (POSTGRES.contains("?") ? "&" : "?") + "currentSchema=" + schema;
            ScaleOut.Report report = ScaleOut.run(new ScaleOut.Settings(REQUESTS, 24, RPM, SEED, url, REDIS, dir));
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
