package dev.switchboard.engine.extend;

import dev.switchboard.model.WireName;

/** How an MCP client reaches a server (spec 2.11): Streamable HTTP, server-sent events, or a local process on stdio. */
public enum Transport implements WireName {
    STREAMABLE_HTTP, SSE, STDIO;

    /** MCP spells it {@code streamable-http}. */
    @Override
    public char separator() {
        return '-';
    }

    /** Parses {@code streamable-http | sse | stdio}; anything else is a 400 naming {@code field}. */
    public static Transport parse(String s, String field) {
        return WireName.parse(values(), s, field);
    }
}
