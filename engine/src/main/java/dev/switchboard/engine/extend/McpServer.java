package dev.switchboard.engine.extend;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An MCP server entry (spec 2.11): where MCP clients connect and what it advertises. Informational: the
 * gateway lists servers, it does not call them.
 *
 * @param url      the endpoint for the HTTP transports; for stdio servers, optionally the package or repository
 * @param command  for stdio servers, the command that starts it (e.g. {@code npx -y @modelcontextprotocol/server-memory})
 * @param tools    advertised tool names (informational)
 * @param verified the operator checked the facts of this entry
 */
public record McpServer(ItemHeader head, Optional<String> url, Transport transport, Optional<String> command,
                        List<String> tools, Optional<String> homepage, boolean official, boolean verified, long likes)
        implements CatalogItem {
    public McpServer {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(command, "command");
        tools = List.copyOf(tools);
        Objects.requireNonNull(homepage, "homepage");
    }

    @Override
    public ItemKind kind() {
        return ItemKind.MCP_SERVER;
    }
}
