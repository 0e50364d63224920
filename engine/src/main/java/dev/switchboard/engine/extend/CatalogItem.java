package dev.switchboard.engine.extend;

import java.time.Instant;
import java.util.List;

/** What every catalog entry has, whatever its kind. */
public sealed interface CatalogItem permits Skill, McpServer, Marketplace, CharacterCard, Plugin {
    ItemKind kind();

    String id();

    String name();

    String description();

    /** Normalized tags (see {@link Tags}), in the order they were given. */
    List<String> tags();

    Instant createdAt();

    Instant updatedAt();
}
