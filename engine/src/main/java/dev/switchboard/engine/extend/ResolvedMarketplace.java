package dev.switchboard.engine.extend;

import java.util.List;
import java.util.Objects;

/**
 * A marketplace with its references resolved at read time: each item that still exists and is visible, in the
 * marketplace's order. References to deleted or private entries are dropped, never an error.
 */
public record ResolvedMarketplace(Marketplace marketplace, List<CatalogItem> items) {
    public ResolvedMarketplace {
        Objects.requireNonNull(marketplace, "marketplace");
        items = List.copyOf(items);
    }
}
