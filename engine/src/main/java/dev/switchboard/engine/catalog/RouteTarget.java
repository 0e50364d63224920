package dev.switchboard.engine.catalog;

import java.util.Objects;

/** One entry of a model's provider pool: which provider, and the model name that provider knows it by. */
public record RouteTarget(String providerId, String upstreamModel) {
    public RouteTarget {
        Objects.requireNonNull(providerId, "providerId");
        Objects.requireNonNull(upstreamModel, "upstreamModel");
    }
}
