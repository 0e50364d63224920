package dev.switchboard.engine.extend;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** A curated collection of skills and MCP servers (spec 2.11); {@code items} are references, resolved at read time. */
public record Marketplace(String id, String name, String description, Optional<String> homepage, List<ItemRef> items,
                          List<String> tags, boolean official, long likes, Instant createdAt, Instant updatedAt)
        implements CatalogItem {
    public Marketplace {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(homepage, "homepage");
        items = List.copyOf(items);
        tags = List.copyOf(tags);
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }

    @Override
    public ItemKind kind() {
        return ItemKind.MARKETPLACE;
    }
}
