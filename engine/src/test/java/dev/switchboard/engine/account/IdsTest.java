package dev.switchboard.engine.account;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class IdsTest {

    @Test
    void prefixThen26Base32Chars() {
        assertThat(Ids.next("usr", Instant.now())).matches("usr_[0-9a-hjkmnp-tv-z]{26}");
    }

    @Test
    void laterMillisecondsSortLater() {
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        for (int i = 0; i < 100; i++) {
            assertThat(Ids.next("led", t.plusMillis(i + 1))).isGreaterThan(Ids.next("led", t.plusMillis(i)));
        }
    }

    @Test
    void idsOfTheSameMillisecondDiffer() {
        Instant t = Instant.now();
        assertThat(Ids.next("key", t)).isNotEqualTo(Ids.next("key", t));
    }
}
