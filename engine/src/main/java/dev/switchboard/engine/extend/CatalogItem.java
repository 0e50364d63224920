package dev.switchboard.engine.extend;

import java.time.Instant;
import java.util.List;

/** What every catalog entry has, whatever its kind: its kind and its {@link ItemHeader}. */
public sealed interface CatalogItem permits Skill, McpServer, Marketplace, CharacterCard, Plugin {
    ItemKind kind();

    ItemHeader head();

    default String id() {
        return head().id();
    }

    default String name() {
        return head().name();
    }

    default String description() {
        return head().description();
    }

    /** Normalized tags (see {@link Tags}), in the order they were given. */
    default List<String> tags() {
        return head().tags();
    }

    default Instant createdAt() {
        return head().createdAt();
    }

    default Instant updatedAt() {
        return head().updatedAt();
    }
}
