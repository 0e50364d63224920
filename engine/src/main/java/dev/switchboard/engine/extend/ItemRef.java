package dev.switchboard.engine.extend;

import java.util.Objects;

/** A marketplace's reference to a skill or an MCP server, resolved when the marketplace is read. */
public record ItemRef(ItemKind kind, String id) {
    public ItemRef {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(id, "id");
        if (kind != ItemKind.SKILL && kind != ItemKind.MCP_SERVER) {
            throw new IllegalArgumentException("a marketplace lists skills and MCP servers, not " + kind);
        }
    }
}
