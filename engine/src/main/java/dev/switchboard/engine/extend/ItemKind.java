package dev.switchboard.engine.extend;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The five kinds of catalog entries. {@link #wire()} is the name in marketplace references and in storage
 * ({@code skill}, {@code mcp_server} ...); {@link #path()} is the name in URLs ({@code mcp-servers}).
 */
public enum ItemKind {
    SKILL("skill", "skills"),
    MCP_SERVER("mcp_server", "mcp-servers"),
    MARKETPLACE("marketplace", "marketplaces"),
    CHARACTER("character", "characters"),
    PLUGIN("plugin", "plugins");

    private final String wire;
    private final String path;

    ItemKind(String wire, String path) {
        this.wire = wire;
        this.path = path;
    }

    public String wire() {
        return wire;
    }

    public String path() {
        return path;
    }

    /** A person's word for it, in messages: "skill", "MCP server". */
    public String noun() {
        return this == MCP_SERVER ? "MCP server" : wire;
    }

    public static Optional<ItemKind> fromWire(String s) {
        return Arrays.stream(values()).filter(k -> k.wire.equals(s.toLowerCase(Locale.ROOT))).findFirst();
    }

    public static Optional<ItemKind> fromPath(String s) {
        return Arrays.stream(values()).filter(k -> k.path.equals(s)).findFirst();
    }
}
