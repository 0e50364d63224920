package dev.switchboard.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code dashboard:} and {@code extend:} sections: values, defaults, and problems reported with their place. */
class DashboardConfigTest {
    private static final String BASE = """
            providers:
              sim: {type: simulator}
            models:
              m: {context_length: 1000, max_output_tokens: 100, pricing: {input: 0, output: 0}, route: [{provider: sim, model: m}]}
            """;

    private static GatewayConfig parse(String extra) {
        return ConfigLoader.parse(BASE + extra, "test.yaml", Map.of());
    }

    @Test
    void defaultsWhenAbsent() {
        GatewayConfig c = parse("");
        assertThat(c.dashboard()).isEqualTo(DashboardConfig.DEFAULT);
        assertThat(c.dashboard().openSignup()).isFalse();
        assertThat(c.starterCatalog()).isTrue();
    }

    @Test
    void everySettingIsRead() {
        GatewayConfig c = parse("""
                dashboard: {signup: open, session_idle: 12h, session_max: 336h, secure_cookie: always, trust_forwarded_for: true}
                extend: {starter_catalog: false}
                """);
        assertThat(c.dashboard()).isEqualTo(new DashboardConfig(true, Duration.ofHours(12), Duration.ofHours(336),
                DashboardConfig.SecureCookie.ALWAYS, true));
        assertThat(c.starterCatalog()).isFalse();
    }

    @Test
    void wrongValuesAreReportedWithTheirLine() {
        assertThatThrownBy(() -> parse("""
                dashboard:
                  signup: sometimes
                  session_idle: 7
                  secure_cookie: maybe
                  remember_me: true
                extend: {starter: yes}
                """)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("test.yaml:6:11: 'signup' of 'dashboard' must be open or closed")
                .hasMessageContaining("test.yaml:7:17: 'session_idle' of 'dashboard' is not a duration")
                .hasMessageContaining("must be auto, always or never")
                .hasMessageContaining("unknown key 'remember_me'")
                .hasMessageContaining("unknown key 'starter'");
    }
}
