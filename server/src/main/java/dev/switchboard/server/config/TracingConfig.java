package dev.switchboard.server.config;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;

/**
 * OpenTelemetry tracing, from the config's {@code tracing} section: off unless an OTLP endpoint is given.
 *
 * @param otlpEndpoint where spans are sent with OTLP over HTTP (protobuf), the full URL of the traces path, e.g.
 *                     {@code http://collector:4318/v1/traces} ({@code tracing.otlp_endpoint}); empty: tracing off
 * @param serviceName  the {@code service.name} of the spans ({@code tracing.service_name}, default
 *                     {@value #DEFAULT_SERVICE_NAME})
 */
public record TracingConfig(Optional<URI> otlpEndpoint, String serviceName) {
    public static final String DEFAULT_SERVICE_NAME = "switchboard";
    public static final TracingConfig OFF = new TracingConfig(Optional.empty(), DEFAULT_SERVICE_NAME);

    public TracingConfig {
        Objects.requireNonNull(otlpEndpoint, "otlpEndpoint");
        Objects.requireNonNull(serviceName, "serviceName");
    }
}
