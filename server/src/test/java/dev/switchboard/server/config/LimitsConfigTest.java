package dev.switchboard.server.config;

import static dev.switchboard.server.config.ConfigSupport.BASE;
import static dev.switchboard.server.config.ConfigSupport.parse;
import static dev.switchboard.server.config.ConfigSupport.problems;
import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.engine.limits.OnStoreFailure;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code limits:} section: the store-failure policy and the store timeout, with defaults and clear errors. */
class LimitsConfigTest {
    @Test
    void defaultsAllowWhenTheStoreIsDown() {
        assertThat(parse(BASE).limits()).isEqualTo(LimitsConfig.DEFAULT);
        assertThat(LimitsConfig.DEFAULT.onStoreFailure()).isEqualTo(OnStoreFailure.ALLOW);
    }

    @Test
    void denyAndATimeoutAreRead() {
        LimitsConfig l = parse("limits: {on_store_failure: deny, store_timeout: 200ms, redis_prefix: \"gw2:\"}\n" + BASE).limits();
        assertThat(l).isEqualTo(new LimitsConfig(OnStoreFailure.DENY, Duration.ofMillis(200), "gw2:"));
    }

    @Test
    void badValuesAreNamedWithTheirPlace() {
        List<ConfigProblem> ps = problems("limits: {on_store_failure: maybe, store_timeout: forever, burst: 3}\n" + BASE);
        assertThat(ps).extracting(ConfigProblem::message).anySatisfy(m -> assertThat(m)
                .contains("unknown key 'burst'", "on_store_failure, store_timeout, redis_prefix"));
        assertThat(ps).extracting(ConfigProblem::message).anySatisfy(m -> assertThat(m)
                .contains("on_store_failure", "must be allow or deny, got 'maybe'"));
        assertThat(ps).extracting(ConfigProblem::message).anySatisfy(m -> assertThat(m)
                .contains("store_timeout", "got 'forever'"));
        assertThat(ps).allSatisfy(p -> assertThat(p.line()).isEqualTo(1));
    }
}
