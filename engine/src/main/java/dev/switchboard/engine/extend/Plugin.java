package dev.switchboard.engine.extend;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A plugin entry: a downloadable artifact (a ready-made config file, an extension) with its description.
 * Entries without an uploaded artifact exist for the operator but are not listed publicly.
 *
 * @param section  the group it is listed under ({@code coding-tools}, {@code chat-apps} ...)
 * @param verified curated by the operator ({@code /v1/plugins/verified})
 */
public record Plugin(String id, String name, String description, String section, String version, boolean verified,
                     Optional<String> homepage, List<String> tags, Optional<Artifact> artifact, Instant createdAt,
                     Instant updatedAt) implements CatalogItem {
    public Plugin {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(section, "section");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(homepage, "homepage");
        tags = List.copyOf(tags);
        Objects.requireNonNull(artifact, "artifact");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }

    @Override
    public ItemKind kind() {
        return ItemKind.PLUGIN;
    }
}
