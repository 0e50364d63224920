package dev.switchboard.server.config;

import static dev.switchboard.server.config.ConfigSupport.oneModel;
import static dev.switchboard.server.config.ConfigSupport.parse;
import static dev.switchboard.server.config.ConfigSupport.problems;
import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.engine.catalog.Ejection;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A provider's {@code breaker}: on by default, off, or tuned; wrong values are problems naming it. */
class ProviderBreakerConfigTest {
    private static String config(String breaker) {
        return """
                providers:
                  a:
                    type: openai
                    keys: [sk-1]
                %s
                """.formatted(breaker) + oneModel("a");
    }

    @Test
    void onByDefaultOffOrTuned() {
        assertThat(parse(config("")).catalog().provider("a").orElseThrow().breaker()).isEqualTo(Ejection.DEFAULT);
        assertThat(parse(config("    breaker: off")).catalog().provider("a").orElseThrow().breaker()).isEqualTo(Ejection.OFF);
        assertThat(parse(config("    breaker: {failures: 3, cooldown: 30s}")).catalog().provider("a").orElseThrow().breaker())
                .isEqualTo(new Ejection(3, Duration.ofSeconds(30)));
    }

    @Test
    void wrongValuesAreProblems() {
        assertThat(problems(config("    breaker: sometimes"))).extracting(ConfigProblem::message)
                .anySatisfy(m -> assertThat(m).contains("breaker", "off or {failures: 5, cooldown: 10s}"));
        assertThat(problems(config("    breaker: {failures: 0, cooldown: x, after: 1}"))).extracting(ConfigProblem::message)
                .anySatisfy(m -> assertThat(m).contains("'failures'"))
                .anySatisfy(m -> assertThat(m).contains("cooldown"))
                .anySatisfy(m -> assertThat(m).contains("unknown key 'after'"));
    }
}
