package dev.switchboard.engine.extend;

import java.util.Objects;
import java.util.Optional;

/**
 * A plugin entry: a downloadable artifact (a ready-made config file, an extension) with its description.
 * Entries without an uploaded artifact exist for the operator but are not listed publicly.
 *
 * @param section  the group it is listed under ({@code coding-tools}, {@code chat-apps} ...)
 * @param verified curated by the operator ({@code /v1/plugins/verified})
 */
public record Plugin(ItemHeader head, String section, String version, boolean verified, Optional<String> homepage,
                     Optional<Artifact> artifact) implements CatalogItem {
    public Plugin {
        Objects.requireNonNull(section, "section");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(homepage, "homepage");
        Objects.requireNonNull(artifact, "artifact");
    }

    @Override
    public ItemKind kind() {
        return ItemKind.PLUGIN;
    }
}
