package dev.switchboard.engine.extend;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.model.GatewayError;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's side of the catalog (admin API and CLI): official skills, MCP servers, marketplaces,
 * characters and plugins written one by one or imported from a seed, plugin artifacts uploaded, any entry
 * deleted (users' skills too: moderation), and everything the operator manages exported as a seed.
 */
public final class Curation {
    private static final Logger LOG = LoggerFactory.getLogger(Curation.class);

    private final CatalogStore store;
    private final Clock clock;

    public Curation(CatalogStore store, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** How many entries of each kind an import wrote and left as they were. */
    public record ImportReport(Map<ItemKind, Integer> written, Map<ItemKind, Integer> kept, int artifacts) {
        public ImportReport {
            written = Map.copyOf(written);
            kept = Map.copyOf(kept);
        }
    }

    /**
     * Creates or replaces the operator entry {@code kind/id} from {@code body} (the seed shape of one entry).
     * Counts and the creation time of an existing entry are kept. A user's skill cannot be replaced (409).
     */
    public CatalogItem put(ItemKind kind, String id, JsonNode body) {
        CatalogItem item = ItemJson.read(kind, JsonInput.of(body, ""), Optional.of(id), now());
        Optional<CatalogItem> existing = store.find(kind, item.id());
        if (existing.isPresent() && existing.get() instanceof Skill s && s.ownerId().isPresent()) {
            throw Refusals.conflict("id", "The skill '" + id + "' belongs to the user " + s.creatorUsername()
                    + "; official skills need an id of their own.");
        }
        if (item instanceof Marketplace m) {
            checkReferences(m, Set.of(), Set.of(), "items");
        }
        store.save(item, CatalogStore.OnConflict.REPLACE);
        return store.find(kind, item.id()).orElseThrow();
    }

    /** Every entry of {@code kind}, whoever owns it and whatever its visibility, one page of the list contract. */
    public Page<CatalogItem> list(ItemKind kind, ListQuery query) {
        return store.list(kind, CatalogStore.OPERATOR, query);
    }

    /** Any entry, private skills included; 404 when there is none. */
    public CatalogItem get(ItemKind kind, String id) {
        if (!EntryIds.plausible(id)) {
            throw Refusals.notFound(kind, id);
        }
        return store.find(kind, id).orElseThrow(() -> Refusals.notFound(kind, id));
    }

    /** Deletes any entry, users' skills included; whether it existed. */
    public boolean delete(ItemKind kind, String id) {
        boolean deleted = EntryIds.plausible(id) && store.delete(kind, id);
        if (deleted) {
            LOG.info("operator deleted {} {}", kind.wire(), id);
        }
        return deleted;
    }

    /** Stores {@code content} as the artifact of plugin {@code pluginId}, served as {@code fileName}. */
    public Plugin attach(String pluginId, String fileName, String contentType, byte[] content) {
        if (!Artifact.validFileName(fileName)) {
            throw GatewayError.invalid("file_name", "file_name: expected letters, digits, '.', '_' or '-' (no path), at most"
                    + " 128 characters").toException();
        }
        if (content.length == 0) {
            throw GatewayError.invalid("body", "The artifact is empty; send its bytes as the request body.").toException();
        }
        if (content.length > Limits.ARTIFACT_BYTES) {
            throw new GatewayError(413, "request_too_large", "An artifact may have at most " + Limits.ARTIFACT_BYTES
                    + " bytes; this one has " + content.length + ".", Optional.empty(), false).toException();
        }
        Artifact artifact = new Artifact(fileName, Seed.contentType(contentType, "content_type"), content.length, sha256(content));
        return switch (store.attachArtifact(pluginId, artifact, content, now())) {
            case ATTACHED -> (Plugin) store.find(ItemKind.PLUGIN, pluginId).orElseThrow();
            case NO_SUCH_PLUGIN -> throw Refusals.notFound(ItemKind.PLUGIN, pluginId);
            case FILE_NAME_TAKEN -> throw Refusals.conflict("file_name", "Another plugin is served as '" + fileName
                    + "'; file names are unique.");
        };
    }

    /**
     * Imports a seed: with {@code REPLACE} every entry is written (counts kept); with {@code KEEP} existing
     * entries stay as they are, which is what loading the starter catalog on every start needs. A plugin's
     * artifact is stored when its entry was written.
     */
    public ImportReport importSeed(Seed seed, CatalogStore.OnConflict mode) {
        for (CatalogItem item : seed.items()) {
            if (item instanceof Marketplace m) {
                checkReferences(m, seed.ids(ItemKind.SKILL), seed.ids(ItemKind.MCP_SERVER), "marketplaces[" + m.id() + "].items");
            }
            if (item instanceof Skill s && mode == CatalogStore.OnConflict.REPLACE) {
                store.find(ItemKind.SKILL, s.id()).filter(e -> ((Skill) e).ownerId().isPresent()).ifPresent(e -> {
                    throw Refusals.conflict("skills", "The skill '" + s.id() + "' belongs to a user; official skills need an id"
                            + " of their own.");
                });
            }
        }
        Map<ItemKind, Integer> written = new EnumMap<>(ItemKind.class);
        Map<ItemKind, Integer> kept = new EnumMap<>(ItemKind.class);
        int artifacts = 0;
        for (CatalogItem item : seed.items()) {
            boolean wrote = store.save(item, mode);
            (wrote ? written : kept).merge(item.kind(), 1, Integer::sum);
            Seed.Upload u = seed.artifacts().get(item.id());
            // a plugin kept as it was still gets its file when it has none (an earlier load stopped half-way)
            boolean needsFile = wrote || store.find(ItemKind.PLUGIN, item.id()).map(p -> ((Plugin) p).artifact().isEmpty())
                    .orElse(false);
            if (item.kind() == ItemKind.PLUGIN && u != null && needsFile) {
                attach(item.id(), u.fileName(), u.contentType(), u.content());
                artifacts++;
            }
        }
        return new ImportReport(written, kept, artifacts);
    }

    /**
     * Imports the seed with KEEP once per {@code marker}; later calls (on any instance) do nothing. Instances
     * starting at once may both import: KEEP makes that harmless.
     */
    public Optional<ImportReport> importOnce(String marker, java.util.function.Supplier<Seed> seed) {
        if (store.marked(marker)) {
            return Optional.empty();
        }
        ImportReport report = importSeed(seed.get(), CatalogStore.OnConflict.KEEP);
        store.mark(marker, now());
        return Optional.of(report);
    }

    /** Everything the operator manages (official skills and every entry of the other kinds), as a seed. */
    public Seed export() {
        List<CatalogItem> items = new ArrayList<>();
        Map<String, Seed.Upload> artifacts = new LinkedHashMap<>();
        for (ItemKind kind : Seed.SECTIONS.values()) {
            for (CatalogItem item : store.list(kind, CatalogStore.OPERATOR, ListQuery.ALL.unpaged()).items()) {
                if (item instanceof Skill s && s.ownerId().isPresent()) {
                    continue;
                }
                items.add(item);
                if (item instanceof Plugin p && p.artifact().isPresent()) {
                    Artifact a = p.artifact().get();
                    store.artifact(a.fileName()).ifPresent(stored ->
                            artifacts.put(p.id(), new Seed.Upload(a.fileName(), a.contentType(), stored.content())));
                }
            }
        }
        return new Seed(items, artifacts);
    }

    private void checkReferences(Marketplace m, Set<String> seedSkills, Set<String> seedServers, String field) {
        for (int i = 0; i < m.items().size(); i++) {
            ItemRef r = m.items().get(i);
            boolean inSeed = r.kind() == ItemKind.SKILL ? seedSkills.contains(r.id()) : seedServers.contains(r.id());
            if (!inSeed && store.find(r.kind(), r.id()).isEmpty()) {
                throw GatewayError.invalid(field + "[" + i + "]", field + "[" + i + "]: there is no " + r.kind().noun()
                        + " with id '" + r.id() + "'").toException();
            }
        }
    }

    static String sha256(byte[] content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK provides SHA-256", e);
        }
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
