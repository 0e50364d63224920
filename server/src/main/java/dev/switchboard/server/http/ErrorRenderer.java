package dev.switchboard.server.http;

import dev.switchboard.model.GatewayError;

/** Renders an error body in one wire format (each client format has its own envelope, docs/contracts.md §4). */
@FunctionalInterface
public interface ErrorRenderer {
    byte[] render(GatewayError error);
}
