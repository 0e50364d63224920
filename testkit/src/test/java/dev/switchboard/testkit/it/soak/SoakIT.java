package dev.switchboard.testkit.it.soak;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.testkit.soak.Soak;
import dev.switchboard.testkit.soak.SoakReport;
import dev.switchboard.testkit.soak.SoakSettings;
import java.nio.file.Path;
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
        try (ScratchSchema schema = ScratchSchema.create("soak_")) {
            SoakReport report = Soak.run(settings(schema.databaseUrl(), dir("postgresql")));
            System.out.println(report.render());
            assertThat(report.violations()).as(report.render()).isEmpty();
        }
    }
}
