package dev.switchboard.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Durations, listen addresses, URL redaction, suggestions. */
class SmallPartsTest {

    @Test
    void durationsInEachUnit() {
        assertThat(Durations.parse("500ms")).contains(Duration.ofMillis(500));
        assertThat(Durations.parse("5s")).contains(Duration.ofSeconds(5));
        assertThat(Durations.parse("10m")).contains(Duration.ofMinutes(10));
        assertThat(Durations.parse("1h")).contains(Duration.ofHours(1));
        assertThat(Durations.parse(" 90s ")).contains(Duration.ofSeconds(90));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "5", "0s", "-5s", "1.5s", "5 s", "5sec", "1d", "1h30m", "PT5S", "s"})
    void durationsThatAreRefused(String text) {
        assertThat(Durations.parse(text)).isEmpty();
    }

    @Test
    void listenAddresses() {
        assertThat(ListenAddress.parse("127.0.0.1:8080")).contains(new ListenAddress("127.0.0.1", 8080));
        assertThat(ListenAddress.parse("[::]:80")).contains(new ListenAddress("::", 80));
        assertThat(ListenAddress.parse("gateway.local:443")).contains(new ListenAddress("gateway.local", 443));
        for (String bad : List.of("8080", ":8080", "host:", "host:65536", "host:port", "::1:8080", "http://h:1", "a b:1", "[::1]")) {
            assertThat(ListenAddress.parse(bad)).as(bad).isEmpty();
        }
    }

    @Test
    void suggestsOnlyCloseNames() {
        List<String> keys = ProviderBinder.KEYS;
        assertThat(Suggestions.closest("base_ur", keys)).contains("base_url");
        assertThat(Suggestions.closest("tpye", keys)).contains("type");
        assertThat(Suggestions.closest("Keys", keys)).contains("keys");
        assertThat(Suggestions.closest("completely_else", keys)).isEmpty();
        assertThat(Suggestions.closest("x", keys)).isEmpty();
    }
}
