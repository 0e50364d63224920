package dev.switchboard.server.config;

import dev.switchboard.engine.catalog.Catalog;
import java.net.URI;
import java.util.Objects;
import java.util.Optional;

/**
 * A complete, validated gateway configuration: a config that fails validation never becomes one.
 *
 * @param listen   where the HTTP server binds
 * @param database {@code sqlite:PATH} or {@code postgresql://user:pass@host:5432/db}, as written (may hold a password)
 * @param redis    shared counters for several instances; empty: counters live in memory
 * @param adminKey the Bearer key of the admin API; empty: the gateway creates one on first start
 * @param catalog  the providers and the models they serve
 * @param source   where this came from: the config file's path, or {@link #EMBEDDED_DEFAULT}
 * @param dashboard sign-in sessions and sign-up
 * @param starterCatalog whether the starter catalog of skills, MCP servers, characters, marketplaces and plugins
 *                 is loaded on first start ({@code extend: {starter_catalog: false}} to start empty)
 */
public record GatewayConfig(ListenAddress listen, String database, Optional<URI> redis, Optional<String> adminKey,
                            Catalog catalog, String source, DashboardConfig dashboard, boolean starterCatalog) {
    /** The {@link #source()} of {@link ConfigLoader#embeddedDefault}. */
    public static final String EMBEDDED_DEFAULT = "embedded default";
    public static final String DEFAULT_DATABASE = "sqlite:data/switchboard.db";

    public GatewayConfig {
        Objects.requireNonNull(listen, "listen");
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(redis, "redis");
        Objects.requireNonNull(adminKey, "adminKey");
        Objects.requireNonNull(catalog, "catalog");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(dashboard, "dashboard");
    }

    /** True when this is the embedded default rather than an operator's file. */
    public boolean isEmbeddedDefault() {
        return EMBEDDED_DEFAULT.equals(source);
    }

    /** The database URL with any password replaced by {@code ***}, for logs and start-up banners. */
    public String databaseForDisplay() {
        return UrlRedaction.redactUrl(database);
    }

    /** The Redis URI with any password replaced by {@code ***}. */
    public Optional<String> redisForDisplay() {
        return redis.map(u -> UrlRedaction.redactUrl(u.toString()));
    }

    /** Never prints the admin key, provider keys or passwords in URLs. */
    @Override
    public String toString() {
        return "GatewayConfig[source=" + source + ", listen=" + listen + ", database=" + databaseForDisplay() + ", redis="
                + redisForDisplay().orElse("none") + ", adminKey=" + (adminKey.isPresent() ? "(set)" : "(none)") + ", providers="
                + catalog.providers().stream().map(p -> p.id()).toList() + ", models=" + catalog.models().size() + "]";
    }
}
