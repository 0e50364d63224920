package dev.switchboard.server.http;

import java.util.Objects;

/**
 * A route: method, path pattern (with {@code {name}} parameters), the endpoint name used in logs, metrics
 * and key scopes, how errors look on it, and the handler.
 */
public record Route(String method, String pattern, String endpoint, ErrorRenderer errors, Handler handler) {
    public Route {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(pattern, "pattern");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(errors, "errors");
        Objects.requireNonNull(handler, "handler");
    }
}
