package dev.switchboard.engine.extend;

import dev.switchboard.model.GatewayError;

/** How an MCP client reaches a server (spec 2.11): Streamable HTTP, server-sent events, or a local process on stdio. */
public enum Transport {
    STREAMABLE_HTTP("streamable-http"), SSE("sse"), STDIO("stdio");

    private final String wire;

    Transport(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static Transport parse(String s, String field) {
        for (Transport t : values()) {
            if (t.wire.equals(s)) {
                return t;
            }
        }
        throw GatewayError.invalid(field, field + ": expected streamable-http, sse or stdio, got '" + s + "'").toException();
    }
}
