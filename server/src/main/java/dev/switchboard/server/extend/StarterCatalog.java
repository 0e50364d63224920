package dev.switchboard.server.extend;

import dev.switchboard.engine.extend.Curation;
import dev.switchboard.engine.extend.Seed;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The catalog the gateway ships: official skills, MCP server entries, marketplaces, original characters and
 * plugins with real artifacts (ready-made configs that point coding tools at this gateway). Loaded on the first
 * start of a database and never again (a database marker records it), so what the operator deletes or edits
 * stays so; existing entries are never overwritten, which also makes several instances starting at once safe.
 */
public final class StarterCatalog {
    /** The seed resource. */
    public static final String RESOURCE = "dev/switchboard/server/extend/starter/catalog.yaml";
    /** The database marker of this version of the starter catalog. */
    public static final String MARKER = "extend_starter_catalog_v1";
    private static final Logger LOG = LoggerFactory.getLogger(StarterCatalog.class);

    private StarterCatalog() {
    }

    /** The shipped seed, read and checked. */
    public static Seed seed(Instant now) {
        return SeedFiles.resource(RESOURCE, now);
    }

    /** Loads the starter catalog unless this database has had it; what was written, when it was. */
    public static Optional<Curation.ImportReport> loadOnce(Curation curation, Instant now) {
        Optional<Curation.ImportReport> report = curation.importOnce(MARKER, () -> seed(now));
        report.ifPresent(r -> LOG.info("loaded the starter catalog: {} entries written, {} kept, {} artifacts",
                r.written().values().stream().mapToInt(Integer::intValue).sum(),
                r.kept().values().stream().mapToInt(Integer::intValue).sum(), r.artifacts()));
        return report;
    }
}
