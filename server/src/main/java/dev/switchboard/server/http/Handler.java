package dev.switchboard.server.http;

/** Serves one route. Throwing {@code GatewayException} answers with that error in the route's format. */
@FunctionalInterface
public interface Handler {
    void handle(Exchange exchange) throws Exception;
}
