package dev.switchboard.engine.extend;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** A curated collection of skills and MCP servers (spec 2.11); {@code items} are references, resolved at read time. */
public record Marketplace(ItemHeader head, Optional<String> homepage, List<ItemRef> items, boolean official, long likes)
        implements CatalogItem {
    public Marketplace {
        Objects.requireNonNull(homepage, "homepage");
        items = List.copyOf(items);
    }

    @Override
    public ItemKind kind() {
        return ItemKind.MARKETPLACE;
    }
}
