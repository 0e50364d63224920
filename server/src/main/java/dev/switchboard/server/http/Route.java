package dev.switchboard.server.http;

import java.util.Objects;

/**
 * A route: method, path pattern (with {@code {name}} parameters), the endpoint name used in logs, metrics
 * and key scopes, how errors look on it, who may call it (checked by the edge before the handler runs), and the
 * handler.
 */
public record Route(String method, String pattern, String endpoint, ErrorRenderer errors, Guard guard, Handler handler) {
    public Route {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(pattern, "pattern");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(errors, "errors");
        Objects.requireNonNull(guard, "guard");
        Objects.requireNonNull(handler, "handler");
    }

    /** A route without a guard ({@link Guard#OPEN}): its handler authenticates the caller, if anyone. */
    public Route(String method, String pattern, String endpoint, ErrorRenderer errors, Handler handler) {
        this(method, pattern, endpoint, errors, Guard.OPEN, handler);
    }
}
