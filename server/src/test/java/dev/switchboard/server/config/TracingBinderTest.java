package dev.switchboard.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TracingBinderTest {
    private static final String BASE = """
            listen: 127.0.0.1:8080
            database: sqlite:/tmp/x.db
            providers:
              sim: {type: simulator}
            models:
              m:
                context_length: 8192
                max_output_tokens: 1024
                pricing: {input: 0, output: 0}
                route: [{provider: sim, model: echo}]
            """;

    @Test
    void tracingIsOffWithoutAnEndpointAndOnWithOne() {
        assertThat(ConfigLoader.parse(BASE, "t", Map.of()).tracing()).isEqualTo(TracingConfig.OFF);
        assertThat(ConfigLoader.parse(BASE + "tracing: {otlp_endpoint: \"\"}\n", "t", Map.of()).tracing().otlpEndpoint())
                .isEmpty();
        TracingConfig on = ConfigLoader.parse(BASE + "tracing: {otlp_endpoint: http://127.0.0.1:4318/v1/traces, service_name: gw}\n",
                "t", Map.of()).tracing();
        assertThat(on.otlpEndpoint()).contains(URI.create("http://127.0.0.1:4318/v1/traces"));
        assertThat(on.serviceName()).isEqualTo("gw");
    }

    @Test
    void aBadEndpointOrUnknownKeyIsAProblemNamingTheField() {
        assertThatThrownBy(() -> ConfigLoader.parse(BASE + "tracing: {otlp_endpoint: \"grpc://collector:4317\"}\n", "t", Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("otlp_endpoint").hasMessageContaining("http://");
        assertThatThrownBy(() -> ConfigLoader.parse(BASE + "tracing: {otlp_endpoint: \"http://u:p@collector:4318\"}\n", "t",
                Map.of())).isInstanceOf(ConfigException.class).hasMessageContaining("without credentials");
        assertThatThrownBy(() -> ConfigLoader.parse(BASE + "tracing: {sampler: always}\n", "t", Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("sampler");
    }

    @Test
    void shutdownGraceIsReadAndChecked() {
        assertThat(ConfigLoader.parse(BASE, "t", Map.of()).edge().shutdownGrace()).isEqualTo(EdgeSettings.DEFAULT_SHUTDOWN_GRACE);
        assertThat(ConfigLoader.parse(BASE + "http: {shutdown_grace: 5s}\n", "t", Map.of()).edge().shutdownGrace())
                .hasSeconds(5);
        assertThatThrownBy(() -> ConfigLoader.parse(BASE + "http: {shutdown_grace: soon}\n", "t", Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("shutdown_grace");
    }
}
