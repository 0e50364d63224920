package dev.switchboard.engine.catalog;

import java.time.LocalDate;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a model's prices and limits were taken from: the published document (a URL), the date that
 * document carried (or was read on), and an optional note (a promotion's end, a price tier not modelled).
 * Shown in model discovery so that a price can always be traced to its source.
 */
public record CatalogSource(String url, LocalDate asOf, Optional<String> note) {
    public CatalogSource {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(asOf, "asOf");
        Objects.requireNonNull(note, "note");
    }
}
