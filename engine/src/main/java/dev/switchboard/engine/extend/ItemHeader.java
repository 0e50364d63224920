package dev.switchboard.engine.extend;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The fields every catalog entry has, whatever its kind: what lists show, filter and sort on. Each kind's
 * record holds one and adds its own fields; {@link CatalogItem} reads these through it.
 *
 * @param tags normalized tags (see {@link Tags}), in the order they were given
 */
public record ItemHeader(String id, String name, String description, List<String> tags, Instant createdAt,
                         Instant updatedAt) {
    public ItemHeader {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        tags = List.copyOf(tags);
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }
}
