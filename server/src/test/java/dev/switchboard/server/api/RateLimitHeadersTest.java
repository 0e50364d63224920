package dev.switchboard.server.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The reset durations in OpenAI's form, which clients parse as Go-style durations. */
class RateLimitHeadersTest {
    @Test
    void durationsReadLikeOpenAis() {
        assertThat(RateLimitHeaders.duration(Duration.ofMillis(250))).isEqualTo("250ms");
        assertThat(RateLimitHeaders.duration(Duration.ofSeconds(12))).isEqualTo("12s");
        assertThat(RateLimitHeaders.duration(Duration.ofMillis(1500))).isEqualTo("1.5s");
        assertThat(RateLimitHeaders.duration(Duration.ofMillis(1050))).isEqualTo("1.05s");
        assertThat(RateLimitHeaders.duration(Duration.ofMillis(61_005))).isEqualTo("1m1.005s");
        assertThat(RateLimitHeaders.duration(Duration.ofMillis(59_120))).isEqualTo("59.12s");
        assertThat(RateLimitHeaders.duration(Duration.ofMinutes(6))).isEqualTo("6m0s");
        assertThat(RateLimitHeaders.duration(Duration.ofMinutes(182))).isEqualTo("3h2m0s");
        assertThat(RateLimitHeaders.duration(Duration.ofSeconds(-3))).isEqualTo("0ms");
    }
}
