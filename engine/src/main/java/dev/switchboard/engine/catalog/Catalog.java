package dev.switchboard.engine.catalog;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The configured models, providers and plans, immutable once built. Resolves a model id or alias to its entry;
 * ids and aliases share one namespace (the config loader rejects collisions).
 */
public final class Catalog {
    private final Map<String, ModelEntry> models;
    private final Map<String, String> aliasToId;
    private final Map<String, ProviderConfig> providers;
    private final Plans plans;

    /** A catalog without plans: every caller is pay-as-you-go. */
    public Catalog(Collection<ProviderConfig> providers, Collection<ModelEntry> models) {
        this(providers, models, Plans.NONE);
    }

    /** The config loader checks that the plans models name exist; this only keeps them. */
    public Catalog(Collection<ProviderConfig> providers, Collection<ModelEntry> models, Plans plans) {
        this.plans = java.util.Objects.requireNonNull(plans, "plans");
        Map<String, ProviderConfig> p = new LinkedHashMap<>();
        for (ProviderConfig c : providers) {
            if (p.put(c.id(), c) != null) {
                throw new IllegalArgumentException("duplicate provider id " + c.id());
            }
        }
        Map<String, ModelEntry> m = new LinkedHashMap<>();
        Map<String, String> a = new LinkedHashMap<>();
        for (ModelEntry e : models) {
            if (m.put(e.id(), e) != null) {
                throw new IllegalArgumentException("duplicate model id " + e.id());
            }
            for (RouteTarget t : e.route()) {
                if (!p.containsKey(t.providerId())) {
                    throw new IllegalArgumentException("model " + e.id() + " routes to unknown provider " + t.providerId());
                }
            }
        }
        for (ModelEntry e : models) {
            for (String alias : e.aliases()) {
                if (m.containsKey(alias) || a.put(alias, e.id()) != null) {
                    throw new IllegalArgumentException("alias " + alias + " of model " + e.id() + " is already taken");
                }
            }
        }
        this.providers = Collections.unmodifiableMap(p);
        this.models = Collections.unmodifiableMap(m);
        this.aliasToId = Collections.unmodifiableMap(a);
    }

    /** The entry for a model id or alias. */
    public Optional<ModelEntry> resolve(String idOrAlias) {
        ModelEntry e = models.get(idOrAlias);
        if (e != null) {
            return Optional.of(e);
        }
        String id = aliasToId.get(idOrAlias);
        return id == null ? Optional.empty() : Optional.ofNullable(models.get(id));
    }

    public List<ModelEntry> models() {
        return List.copyOf(models.values());
    }

    /** The configured plans and what they let callers do with each model. */
    public Plans plans() {
        return plans;
    }

    public Optional<ProviderConfig> provider(String id) {
        return Optional.ofNullable(providers.get(id));
    }

    public List<ProviderConfig> providers() {
        return List.copyOf(providers.values());
    }
}
