package dev.switchboard.server.http;

/**
 * Who may call a route. The edge runs a route's guard before its handler, so a handler behind a guard never checks
 * the caller itself and a route cannot be registered without saying who may call it (every {@code /admin/} route must
 * name a guard other than {@link #OPEN}; {@link RouteTable} refuses the table otherwise).
 *
 * <p>{@link #check} returns when the request may go on and otherwise throws the refusal as a
 * {@code GatewayException} (401, 403), rendered in the route's error format like any handler's.
 */
@FunctionalInterface
public interface Guard {
    /**
     * No check at the edge: public reads, the sign-in routes, and the routes whose handler needs the caller it
     * authenticates (an API key's {@code Caller}, a session's user) and so authenticates it itself.
     */
    Guard OPEN = ex -> {
    };

    void check(Exchange ex);
}
