package dev.switchboard.server.config;

import dev.switchboard.engine.catalog.Catalog;
import dev.switchboard.wire.Redaction;
import java.net.URI;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * A complete, validated gateway configuration: a config that fails validation never becomes one.
 *
 * @param listen   where the HTTP server binds
 * @param database {@code sqlite:PATH} or {@code postgresql://user:pass@host:5432/db}, as written (may hold a password)
 * @param redis    shared counters for several instances; empty: counters live in memory
 * @param adminKey the Bearer key of the admin API; empty: the gateway creates one on first start
 * @param edge     how the HTTP edge treats clients: body limit, heartbeat, CORS, metrics token
 * @param catalog  the providers and the models they serve
 * @param source   where this came from: the config file's path, or {@link #EMBEDDED_DEFAULT}
 * @param dashboard sign-in sessions and sign-up
 * @param starterCatalog whether the starter catalog of skills, MCP servers, characters, marketplaces and plugins
 *                 is loaded on first start ({@code extend: {starter_catalog: false}} to start empty)
 * @param billing  how long credit holds outlive a gateway that died, and how often they are swept
 * @param limits   what happens when the limit store (Redis) cannot be reached
 * @param tracing  OpenTelemetry tracing: where spans go, when anywhere
 */
public record GatewayConfig(ListenAddress listen, String database, Optional<URI> redis, Optional<String> adminKey,
                            EdgeSettings edge, Catalog catalog, String source, DashboardConfig dashboard,
                            boolean starterCatalog, BillingSettings billing, LimitsConfig limits, TracingConfig tracing) {
    /** The {@link #source()} of {@link ConfigLoader#embeddedDefault}. */
    public static final String EMBEDDED_DEFAULT = "embedded default";
    public static final String DEFAULT_DATABASE = "sqlite:data/switchboard.db";
    private static final String SQLITE = "sqlite:";

    public GatewayConfig {
        Objects.requireNonNull(listen, "listen");
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(redis, "redis");
        Objects.requireNonNull(adminKey, "adminKey");
        Objects.requireNonNull(edge, "edge");
        Objects.requireNonNull(catalog, "catalog");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(dashboard, "dashboard");
        Objects.requireNonNull(billing, "billing");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(tracing, "tracing");
    }

    /** A config without tracing. */
    public GatewayConfig(ListenAddress listen, String database, Optional<URI> redis, Optional<String> adminKey,
                         EdgeSettings edge, Catalog catalog, String source, DashboardConfig dashboard,
                         boolean starterCatalog, BillingSettings billing, LimitsConfig limits) {
        this(listen, database, redis, adminKey, edge, catalog, source, dashboard, starterCatalog, billing, limits,
                TracingConfig.OFF);
    }

    /**
     * This config with a relative SQLite path resolved against {@code home}, so that the server and the CLI
     * find the same file whatever directory they are started from. Other databases are returned as they are.
     */
    public GatewayConfig withDatabaseUnder(Path home) {
        return sqliteFile().filter(f -> !f.isAbsolute()).map(f -> {
            String path = database.substring(SQLITE.length());
            String options = path.substring(path.indexOf('?') < 0 ? path.length() : path.indexOf('?'));
            String resolved = SQLITE + home.toAbsolutePath().resolve(f).normalize() + options;
            return new GatewayConfig(listen, resolved, redis, adminKey, edge, catalog, source, dashboard, starterCatalog,
                    billing, limits, tracing);
        }).orElse(this);
    }

    /** The SQLite file this config names (as written: maybe relative), when it names one. */
    public Optional<Path> sqliteFile() {
        if (!database.startsWith(SQLITE)) {
            return Optional.empty();
        }
        String path = database.substring(SQLITE.length());
        int options = path.indexOf('?');
        return Optional.of(Path.of(options < 0 ? path : path.substring(0, options)));
    }

    /** True when this is the embedded default rather than an operator's file. */
    public boolean isEmbeddedDefault() {
        return EMBEDDED_DEFAULT.equals(source);
    }

    /** The database URL with any password replaced by {@code ***}, for logs and start-up banners. */
    public String databaseForDisplay() {
        return Redaction.urlPasswords(database);
    }

    /** The Redis URI with any password replaced by {@code ***}. */
    public Optional<String> redisForDisplay() {
        return redis.map(u -> Redaction.urlPasswords(u.toString()));
    }

    /** Never prints the admin key, provider keys or passwords in URLs. */
    @Override
    public String toString() {
        return "GatewayConfig[source=" + source + ", listen=" + listen + ", database=" + databaseForDisplay() + ", redis="
                + redisForDisplay().orElse("none") + ", adminKey=" + (adminKey.isPresent() ? "(set)" : "(none)") + ", edge=" + edge + ", providers="
                + catalog.providers().stream().map(p -> p.id()).toList() + ", models=" + catalog.models().size() + "]";
    }
}
