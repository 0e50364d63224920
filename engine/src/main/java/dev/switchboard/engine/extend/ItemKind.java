package dev.switchboard.engine.extend;

import dev.switchboard.model.WireName;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The five kinds of catalog entries. {@link #wire()} is the name in marketplace references and in storage
 * ({@code skill}, {@code mcp_server} ...); {@link #path()} is the name in URLs ({@code mcp-servers}).
 */
public enum ItemKind implements WireName {
    SKILL("skills"),
    MCP_SERVER("mcp-servers"),
    MARKETPLACE("marketplaces"),
    CHARACTER("characters"),
    PLUGIN("plugins");

    private final String path;

    ItemKind(String path) {
        this.path = path;
    }

    public String path() {
        return path;
    }

    /** A person's word for it, in messages: "skill", "MCP server". */
    public String noun() {
        return this == MCP_SERVER ? "MCP server" : wire();
    }

    public static Optional<ItemKind> fromWire(String s) {
        return WireName.find(values(), s.toLowerCase(Locale.ROOT));
    }

    public static Optional<ItemKind> fromPath(String s) {
        return Arrays.stream(values()).filter(k -> k.path.equals(s)).findFirst();
    }
}
