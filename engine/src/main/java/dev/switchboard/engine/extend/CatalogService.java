package dev.switchboard.engine.extend;

import dev.switchboard.model.GatewayError;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The public reads of MCP servers, marketplaces, characters and plugins, and the community actions on every
 * kind (likes, character interactions). Entries of these kinds are written by the operator ({@link Curation}).
 */
public final class CatalogService {
    private final CatalogStore store;
    private final Clock clock;

    public CatalogService(CatalogStore store, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public Page<McpServer> mcpServers(ListQuery query) {
        return store.list(ItemKind.MCP_SERVER, CatalogStore.LISTED, query).map(McpServer.class::cast);
    }

    public McpServer mcpServer(String id) {
        return (McpServer) find(ItemKind.MCP_SERVER, id);
    }

    public Page<ResolvedMarketplace> marketplaces(ListQuery query) {
        Page<Marketplace> page = store.list(ItemKind.MARKETPLACE, CatalogStore.LISTED, query).map(Marketplace.class::cast);
        return new Page<>(resolve(page.items()), page.total(), page.page(), page.limit());
    }

    public ResolvedMarketplace marketplace(String id) {
        return resolve(List.of((Marketplace) find(ItemKind.MARKETPLACE, id))).getFirst();
    }

    /** Every character the filters select (no pagination). */
    public Page<CharacterCard> characters(ListQuery query) {
        return store.list(ItemKind.CHARACTER, CatalogStore.LISTED, query.unpaged()).map(CharacterCard.class::cast);
    }

    public CharacterCard character(String id) {
        return (CharacterCard) find(ItemKind.CHARACTER, id);
    }

    /** The tag cloud of characters. */
    public List<TagCount> characterTags(Optional<String> search) {
        return store.tags(ItemKind.CHARACTER, search.map(s -> s.strip().toLowerCase(java.util.Locale.ROOT))
                .filter(s -> !s.isEmpty()), 200);
    }

    /** Every plugin with an artifact that the filters ({@code search}, {@code section}) select. */
    public Page<Plugin> plugins(ListQuery query) {
        return store.list(ItemKind.PLUGIN, CatalogStore.LISTED, query.unpaged()).map(Plugin.class::cast);
    }

    /** One listed plugin (one with an artifact). */
    public Plugin plugin(String id) {
        CatalogItem p = find(ItemKind.PLUGIN, id);
        if (((Plugin) p).artifact().isEmpty()) {
            throw Refusals.notFound(ItemKind.PLUGIN, id);
        }
        return (Plugin) p;
    }

    /** The same, curated entries only. */
    public Page<Plugin> verifiedPlugins(ListQuery query) {
        return plugins(query.verifiedOnly());
    }

    /** The artifact served under {@code fileName}; 404 for any name that is not exactly a plugin's file name. */
    public CatalogStore.StoredArtifact download(String fileName) {
        if (!Artifact.validFileName(fileName)) {
            throw noFile(fileName);
        }
        return store.artifact(fileName).orElseThrow(() -> noFile(fileName));
    }

    /**
     * The viewer likes the entry (a second like changes nothing): the likes afterwards. Skills follow their
     * visibility (another user's private skill is a 404).
     */
    public long like(ItemKind kind, Viewer viewer, String id) {
        visible(kind, viewer, id);
        return store.like(kind, id, viewer.userId(), clock.instant().truncatedTo(ChronoUnit.MILLIS))
                .orElseThrow(() -> Refusals.notFound(kind, id));
    }

    /** Takes the viewer's like back (idempotent): the likes afterwards. */
    public long unlike(ItemKind kind, Viewer viewer, String id) {
        visible(kind, viewer, id);
        return store.unlike(kind, id, viewer.userId()).orElseThrow(() -> Refusals.notFound(kind, id));
    }

    /** Counts one interaction of the viewer with a character: the count afterwards. */
    public long interact(Viewer viewer, String id) {
        find(ItemKind.CHARACTER, id);
        return store.interact(id).orElseThrow(() -> Refusals.notFound(ItemKind.CHARACTER, id));
    }

    /** Which of the entries the viewer likes. */
    public Set<String> likedBy(Viewer viewer, ItemKind kind, Collection<String> ids) {
        return ids.isEmpty() ? Set.of() : store.likedBy(viewer.userId(), kind, ids);
    }

    private void visible(ItemKind kind, Viewer viewer, String id) {
        if (kind == ItemKind.PLUGIN) {
            throw new IllegalArgumentException("plugins have no likes");
        }
        CatalogItem item = find(kind, id);
        if (item instanceof Skill s && !s.readableBy(Optional.of(viewer.userId()))) {
            throw Refusals.notFound(kind, id);
        }
    }

    private CatalogItem find(ItemKind kind, String id) {
        if (!EntryIds.plausible(id)) {
            throw Refusals.notFound(kind, id);
        }
        return store.find(kind, id).orElseThrow(() -> Refusals.notFound(kind, id));
    }

    private List<ResolvedMarketplace> resolve(List<Marketplace> markets) {
        Map<ItemKind, Map<String, CatalogItem>> found = new HashMap<>();
        for (ItemKind kind : List.of(ItemKind.SKILL, ItemKind.MCP_SERVER)) {
            List<String> ids = markets.stream().flatMap(m -> m.items().stream()).filter(r -> r.kind() == kind)
                    .map(ItemRef::id).distinct().toList();
            Map<String, CatalogItem> byId = new HashMap<>();
            if (!ids.isEmpty()) {
                for (CatalogItem item : store.findAll(kind, ids)) {
                    // a marketplace is public: only public and unlisted skills may appear in it
                    if (!(item instanceof Skill s) || s.visibility() != Visibility.PRIVATE) {
                        byId.put(item.id(), item);
                    }
                }
            }
            found.put(kind, byId);
        }
        List<ResolvedMarketplace> out = new ArrayList<>();
        for (Marketplace m : markets) {
            List<CatalogItem> items = new ArrayList<>();
            for (ItemRef r : m.items()) {
                CatalogItem item = found.get(r.kind()).get(r.id());
                if (item != null) {
                    items.add(item);
                }
            }
            out.add(new ResolvedMarketplace(m, items));
        }
        return out;
    }

    private static dev.switchboard.model.GatewayException noFile(String fileName) {
        String shown = fileName.length() > 80 ? fileName.substring(0, 80) + "..." : fileName;
        return GatewayError.notFound("No plugin file named '" + shown + "'.").toException();
    }
}
