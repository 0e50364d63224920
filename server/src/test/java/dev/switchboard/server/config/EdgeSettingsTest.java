package dev.switchboard.server.config;

import static dev.switchboard.server.config.ConfigSupport.BASE;
import static dev.switchboard.server.config.ConfigSupport.parse;
import static dev.switchboard.server.config.ConfigSupport.problems;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The {@code http}, {@code cors} and {@code metrics} sections: defaults, units, and problems named by place. */
class EdgeSettingsTest {

    @Test
    void withoutTheSectionsTheDefaultsApply() {
        EdgeSettings edge = parse(BASE).edge();

        assertThat(edge.maxBodyBytes()).isEqualTo(32L * 1024 * 1024);
        assertThat(edge.heartbeat()).isEqualTo(Duration.ofSeconds(10));
        assertThat(edge.corsOrigins()).isEmpty();
        assertThat(edge.metricsToken()).isEmpty();
        assertThat(edge.idempotencyTtl()).isEqualTo(Duration.ofHours(24));
        assertThat(edge.readTimeout()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void theIdempotencyLifetimeAndTheReadDeadlineAreRead() {
        EdgeSettings edge = parse(BASE + "http: {idempotency_ttl: 2h, read_timeout: 5s}\n").edge();
        assertThat(edge.idempotencyTtl()).isEqualTo(Duration.ofHours(2));
        assertThat(edge.readTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(problems(BASE + "http: {idempotency_ttl: 0s, read_timeout: soon}\n")).extracting(ConfigProblem::message)
                .anySatisfy(m -> assertThat(m).contains("'idempotency_ttl'", "more than 0"))
                .anySatisfy(m -> assertThat(m).contains("'read_timeout'", "soon"));
    }

    @Test
    void everySettingIsRead() {
        EdgeSettings edge = parse(BASE + """
                http: {max_body: 512KB, heartbeat: 2s}
                cors: {allowed_origins: ["https://App.Example.com/", "http://localhost:5173", "*"]}
                metrics: {token: " t0ken "}
                """).edge();

        assertThat(edge.maxBodyBytes()).isEqualTo(512 * 1024);
        assertThat(edge.heartbeat()).isEqualTo(Duration.ofSeconds(2));
        assertThat(edge.corsOrigins()).containsExactly("https://app.example.com", "http://localhost:5173", "*");
        assertThat(edge.metricsToken()).isEqualTo(Optional.of("t0ken"));
        assertThat(edge.toString()).doesNotContain("t0ken");
    }

    @Test
    void anEmptyTokenLeavesMetricsOpen() {
        assertThat(parse(BASE + "metrics: {token: \"\"}\n").edge().metricsToken()).isEmpty();
    }

    @Test
    void wrongValuesAreProblemsNamingTheSetting() {
        List<ConfigProblem> ps = problems(BASE + """
                http: {max_body: 32, heartbeat: 10, keepalive: 1s}
                cors: {allowed_origins: ["https://app.example.com/path", "ftp://x"]}
                metrics: {tokn: x}
                """);

        assertThat(ps).extracting(ConfigProblem::message).anySatisfy(m -> assertThat(m).contains("'max_body'", "32MB"))
                .anySatisfy(m -> assertThat(m).contains("'heartbeat'", "5s"))
                .anySatisfy(m -> assertThat(m).contains("unknown key 'keepalive'"))
                .anySatisfy(m -> assertThat(m).contains("allowed_origins", "https://app.example.com/path"))
                .anySatisfy(m -> assertThat(m).contains("allowed_origins", "ftp://x"))
                .anySatisfy(m -> assertThat(m).contains("unknown key 'tokn'", "did you mean 'token'"));
    }

    @Test
    void aBodyLimitAboveOneGigabyteIsRefused() {
        assertThat(problems(BASE + "http: {max_body: 2GB}\n")).extracting(ConfigProblem::message)
                .singleElement().asString().contains("at most 1GB");
    }
}
