package dev.switchboard.server.config;

import dev.switchboard.engine.catalog.Catalog;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.Plans;
import dev.switchboard.engine.catalog.ProviderConfig;
import dev.switchboard.server.config.YamlNode.Entry;
import dev.switchboard.server.config.YamlNode.Mapping;
import dev.switchboard.server.config.YamlNode.Pos;
import dev.switchboard.server.config.YamlNode.Scalar;
import dev.switchboard.wire.Redaction;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Binds a whole (already env-expanded) config tree to a {@link GatewayConfig}, collecting every problem
 * and throwing them together: the result exists only when there are none. Top-level keys whose name
 * starts with {@code x-} are ignored, so that YAML anchors ({@code x-timeouts: &slow {...}}) have a home.
 */
final class ConfigBinder {
    static final List<String> TOP_KEYS = List.of("listen", "database", "redis", "admin_key", "http", "cors", "metrics",
            "include", "providers", "models", "dashboard", "extend", "plans", "billing", "limits", "tracing");
    /** The largest {@code http.max_body}: bodies are held in memory whole. */
    static final long MAX_BODY_LIMIT = 1L << 30;
    static final List<String> INCLUDES = List.of(BuiltinCatalog.INCLUDE_NAME);

    private final Problems problems;
    private final EnvExpander env;

    ConfigBinder(Problems problems, EnvExpander env) {
        this.problems = problems;
        this.env = env;
    }

    /** The tree without its {@code x-} extension keys. */
    static Mapping withoutExtensions(Mapping root) {
        return new Mapping(root.entries().stream().filter(e -> !e.key().startsWith("x-")).toList(), root.pos());
    }

    GatewayConfig bind(Mapping root, String source) {
        YamlFields top = new YamlFields(withoutExtensions(root), root.pos(), "", problems);
        top.allowOnly(TOP_KEYS);

        ListenAddress listen = listen(top);
        String database = database(top);
        Optional<URI> redis = redis(top);
        Optional<String> adminKey = top.string("admin_key", "admin_key: ${SWITCHBOARD_ADMIN_KEY}").map(String::strip)
                .filter(k -> !k.isEmpty());
        EdgeSettings edge = edge(top);
        Optional<Pos> includeCatalog = includes(top);
        DashboardConfig dashboard = DashboardBinder.dashboard(top);
        boolean starterCatalog = DashboardBinder.starterCatalog(top);
        LimitsConfig limits = LimitsBinder.limits(top);
        TracingConfig tracing = TracingBinder.tracing(top);

        List<ProviderConfig> providers = new ArrayList<>();
        Set<String> providerIds = new LinkedHashSet<>();
        top.map("providers", "'providers'", "providers: {openai: {type: openai, keys: [\"${OPENAI_API_KEY}\"]}}").ifPresent(p -> {
            for (Entry e : p.mapping().entries()) {
                // Known even when broken, so that routes to it are not reported a second time as unknown.
                providerIds.add(e.key());
                ProviderBinder.bind(e, problems).ifPresent(providers::add);
            }
        });

        Namespace names = new Namespace();
        List<ModelEntry> models = ownModels(top, providerIds, names);
        includeCatalog.ifPresent(at -> {
            List<ModelEntry> shipped = BuiltinCatalog.merge(BuiltinCatalog.modelEntries(env, problems), providerIds, names, problems);
            if (shipped.isEmpty()) {
                problems.add(at, "include: " + BuiltinCatalog.INCLUDE_NAME + " added no model: its routes use the provider ids "
                        + String.join(", ", BuiltinCatalog.PROVIDER_IDS) + " and none of them is configured (name your providers so)");
            }
            models.addAll(shipped);
        });
        if (models.isEmpty() && problems.isEmpty()) {
            problems.add(root.pos(), "no model is configured (add models: or include: " + BuiltinCatalog.INCLUDE_NAME + ")");
        }
        Plans plans = PlansBinder.plans(top, models, problems);
        BillingSettings billing = PlansBinder.billing(top);
        problems.throwIfAny();
        return new GatewayConfig(listen, database, redis, adminKey, edge, new Catalog(providers, models, plans), source, dashboard,
                starterCatalog, billing, limits, tracing);
    }

    private List<ModelEntry> ownModels(YamlFields top, Set<String> providerIds, Namespace names) {
        List<ModelEntry> out = new ArrayList<>();
        Optional<YamlFields> section = top.map("models", "'models'", "models: {gpt-4o: {...}}");
        if (section.isEmpty()) {
            return out;
        }
        List<Entry> entries = section.get().mapping().entries();
        // All ids first: an alias may not take the id of a model written further down either.
        entries.forEach(e -> names.addId(e.key(), e.keyPos()));
        ModelBinder binder = new ModelBinder(providerIds, ModelBinder.UnknownProviders.REPORT, problems);
        for (Entry e : entries) {
            ModelBinder.Result bound = binder.bind(e);
            for (Scalar a : bound.aliases()) {
                if (a.text().equals(e.key())) {
                    problems.add(a, "alias '" + a.text() + "' of model '" + e.key() + "' is the model's own id (remove it)");
                    continue;
                }
                names.claimAlias(a.text(), e.key(), a.pos()).ifPresent(owner -> problems.add(a, "alias '" + a.text() + "' of model '"
                        + e.key() + "' collides with " + owner + "; ids and aliases share one namespace (rename or remove one)"));
            }
            bound.entry().ifPresent(out::add);
        }
        return out;
    }

    private ListenAddress listen(YamlFields top) {
        return top.scalar("listen", "listen: 127.0.0.1:8080").flatMap(s -> {
            Optional<ListenAddress> a = ListenAddress.parse(s.text());
            if (a.isEmpty()) {
                problems.add(s, "'listen' must be host:port, got '" + s.text() + "' (e.g. 127.0.0.1:8080 for this machine only, "
                        + "0.0.0.0:8080 for every interface, [::1]:8080 for IPv6)");
            }
            return a;
        }).orElse(ListenAddress.DEFAULT);
    }

    private String database(YamlFields top) {
        return top.scalar("database", "database: " + GatewayConfig.DEFAULT_DATABASE).flatMap(s -> {
            String url = s.text().trim();
            boolean sqlite = url.startsWith("sqlite:") && url.length() > "sqlite:".length();
            boolean postgres = url.startsWith("postgresql://") && url.length() > "postgresql://".length();
            if (!sqlite && !postgres) {
                problems.add(s, "'database' must be sqlite:PATH or postgresql://user:password@host:5432/db, got '"
                        + Redaction.urlPasswords(url) + "' (e.g. " + GatewayConfig.DEFAULT_DATABASE + ")");
                return Optional.empty();
            }
            return Optional.of(url);
        }).orElse(GatewayConfig.DEFAULT_DATABASE);
    }

    /** The Redis URI; an empty value (e.g. {@code ${REDIS_URL:-}}) means "no Redis". */
    private Optional<URI> redis(YamlFields top) {
        Optional<Scalar> s = top.scalar("redis", "redis: redis://127.0.0.1:6379");
        if (s.isEmpty() || s.get().text().isBlank()) {
            return Optional.empty();
        }
        String text = s.get().text().trim();
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("redis") || scheme.equals("rediss")) && uri.getHost() != null) {
                return Optional.of(uri);
            }
        } catch (URISyntaxException e) {
            // reported below, like any other malformed value
        }
        problems.add(s.get(), "'redis' is not a Redis URI: '" + Redaction.urlPasswords(text)
                + "' (expected redis://host:6379, or rediss://host:6380 for TLS)");
        return Optional.empty();
    }

    /** The {@code http}, {@code cors} and {@code metrics} sections, each optional. */
    private EdgeSettings edge(YamlFields top) {
        EdgeSettings d = EdgeSettings.DEFAULTS;
        long maxBody = d.maxBodyBytes();
        java.time.Duration heartbeat = d.heartbeat();
        java.time.Duration idempotencyTtl = d.idempotencyTtl();
        java.time.Duration readTimeout = d.readTimeout();
        java.time.Duration shutdownGrace = d.shutdownGrace();
        Optional<YamlFields> http = top.section("http", "http: {max_body: 32MB, heartbeat: 10s}",
                List.of("max_body", "heartbeat", "idempotency_ttl", "read_timeout", "shutdown_grace"));
        if (http.isPresent()) {
            YamlFields h = http.get();
            Optional<Scalar> body = h.scalar("max_body", "max_body: 32MB");
            if (body.isPresent()) {
                var parsed = Sizes.parse(body.get().text(), MAX_BODY_LIMIT);
                if (parsed.isEmpty()) {
                    problems.add(body.get(), h.label("max_body") + " must be " + Sizes.EXPECTED + ", at most 1GB, got '"
                            + body.get().text() + "'");
                } else {
                    maxBody = parsed.getAsLong();
                }
            }
            heartbeat = httpDuration(h, "heartbeat", "heartbeat: 10s", false).orElse(heartbeat);
            idempotencyTtl = httpDuration(h, "idempotency_ttl", "idempotency_ttl: 24h", true).orElse(idempotencyTtl);
            readTimeout = httpDuration(h, "read_timeout", "read_timeout: 30s", true).orElse(readTimeout);
            shutdownGrace = httpDuration(h, "shutdown_grace", "shutdown_grace: 30s", false).orElse(shutdownGrace);
        }
        List<String> origins = new ArrayList<>();
        top.section("cors", "cors: {allowed_origins: [\"https://app.example.com\"]}", List.of("allowed_origins")).ifPresent(c -> {
            c.scalars("allowed_origins", "allowed_origins: [\"https://app.example.com\"]").ifPresent(list -> {
                for (Scalar s : list) {
                    Optional<String> origin = Origins.normalize(s.text());
                    if (origin.isEmpty()) {
                        problems.add(s, "each of 'allowed_origins' of 'cors' must be * or an origin such as "
                                + "https://app.example.com (scheme, host and optional port; no path), got '" + s.text() + "'");
                    } else {
                        origins.add(origin.get());
                    }
                }
            });
        });
        Optional<String> token = top.section("metrics", "metrics: {token: ${SWITCHBOARD_METRICS_TOKEN}}", List.of("token"))
                .flatMap(m -> m.string("token", "token: ${SWITCHBOARD_METRICS_TOKEN}"))
                .map(String::strip).filter(t -> !t.isEmpty());
        return new EdgeSettings(maxBody, heartbeat, origins, token, idempotencyTtl, readTimeout, shutdownGrace);
    }

    /** A duration of the {@code http} section; with {@code positive}, zero is refused too. */
    private Optional<java.time.Duration> httpDuration(YamlFields h, String key, String example, boolean positive) {
        return h.scalar(key, example).flatMap(s -> {
            Optional<java.time.Duration> v = Durations.parse(s.text()).filter(t -> !positive || !t.isZero());
            if (v.isEmpty()) {
                problems.add(s, h.label(key) + " must be " + Durations.EXPECTED + (positive ? " and more than 0" : "")
                        + ", got '" + s.text() + "'");
            }
            return v;
        });
    }

    /** Where {@code builtin-catalog} is included, if it is. */
    private Optional<Pos> includes(YamlFields top) {
        Optional<Entry> e = top.entry("include");
        if (e.isEmpty()) {
            return Optional.empty();
        }
        List<Scalar> items = new ArrayList<>();
        String example = "include: " + BuiltinCatalog.INCLUDE_NAME;
        if (e.get().value() instanceof Scalar s) {
            items.add(s);
        } else {
            items.addAll(top.scalars("include", example).orElse(List.of()));
        }
        Optional<Pos> catalog = Optional.empty();
        for (Scalar s : items) {
            String name = s.text().trim();
            if (name.equals(BuiltinCatalog.INCLUDE_NAME)) {
                catalog = Optional.of(s.pos());
            } else {
                problems.add(s, "unknown include '" + name + "' (expected one of: " + String.join(", ", INCLUDES)
                        + Suggestions.hint(name, INCLUDES) + ")");
            }
        }
        return catalog;
    }
}
