package dev.switchboard.testkit.it.soak;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.testkit.soak.ScaleOut;
import java.nio.file.Files;
import java.nio.file.Path;
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
    private static final String REDIS = System.getProperty("switchboard.test.redis.url", "redis://127.0.0.1:6379");

    @Test
    void threeInstancesKeepNoStateAnotherInstanceNeeds() throws Exception {
        try (ScratchSchema schema = ScratchSchema.create("scale_")) {
            Path dir = Files.createDirectories(Path.of("target", "scale-out", "run-" + System.currentTimeMillis()));
            ScaleOut.Report report = ScaleOut.run(new ScaleOut.Settings(REQUESTS, 24, RPM, SEED, schema.databaseUrl(), REDIS, dir));
            System.out.println(report.render());
            assertThat(report.violations()).as(report.render()).isEmpty();
        }
    }
}
