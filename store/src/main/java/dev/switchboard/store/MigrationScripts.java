package dev.switchboard.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.sql.DataSource;
import org.flywaydb.core.api.ResourceProvider;
import org.flywaydb.core.api.resource.LoadableResource;
import org.flywaydb.core.internal.resolver.ChecksumCalculator;

/**
 * The schema migrations, read from the class path by name: {@value #INDEX} lists the files of {@value #LOCATION},
 * one per line, and Flyway gets them from here instead of finding them itself.
 *
 * <p>Why: to find the migrations, Flyway walks every entry of the jar they are in; in the gateway's one jar that is
 * some 15,000 entries, read on every start before the database is usable (about a quarter of the migration step's
 * start-up time). A name looked up is one hash probe. The scripts, their names and so their checksums are the same
 * as Flyway's own scan gives, so databases migrated before this class validate unchanged. A migration file missing
 * from the index is caught by the store's tests, which compare the index with the directory.
 *
 * <p>{@link #allApplied} answers, without starting Flyway, whether a database already holds every one of these
 * scripts and nothing else: on most starts there is nothing to migrate, and setting Flyway up to find that out cost
 * about 120 ms of CPU, a fifth of a cold start.
 */
final class MigrationScripts implements ResourceProvider {
    static final String LOCATION = "db/migration";
    static final String INDEX = LOCATION + "/index.txt";

    private final List<Script> scripts;

    private MigrationScripts(List<Script> scripts) {
        this.scripts = List.copyOf(scripts);
    }

    /**
     * Reads the index with {@code loader}.
     *
     * @throws IllegalStateException when the index or a file it names is not on the class path (a broken build)
     */
    static MigrationScripts load(ClassLoader loader) {
        List<Script> scripts = new ArrayList<>();
        for (String name : text(loader, INDEX).lines().map(String::strip).filter(l -> !l.isEmpty()).toList()) {
            URL url = loader.getResource(LOCATION + "/" + name);
            if (url == null) {
                throw new IllegalStateException(INDEX + " names " + name + ", which is not on the class path");
            }
            scripts.add(new Script(name, url));
        }
        return new MigrationScripts(scripts);
    }

    /** The file names the index lists, in its order. */
    List<String> names() {
        return scripts.stream().map(Script::getFilename).toList();
    }

    /**
     * Whether the schema history of the database behind {@code dataSource} records exactly these scripts (by file
     * name), each applied successfully and with the checksum it has now, and no other row: then Flyway would find
     * nothing to apply and nothing to refuse. Any doubt answers {@code false} (no history table yet, a failed, extra
     * or missing migration, an edited script), and the caller lets Flyway decide. Reads only, so instances starting
     * together on one PostgreSQL database need no lock for it; a migration one of them is applying is not yet
     * visible, and the others fall back to Flyway, which waits for it.
     */
    boolean allApplied(DataSource dataSource) {
        Map<String, Integer> applied = new HashMap<>();
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            // Flyway keeps its history in the connection's current schema; a table of that name in another schema of
            // the search path is another database's history, so the name is qualified where there are schemas.
            String schema = c.getSchema();
            String table = (schema == null ? "" : "\"" + schema.replace("\"", "\"\"") + "\".") + "flyway_schema_history";
            try (ResultSet rs = s.executeQuery("SELECT script, checksum, success FROM " + table)) {
                while (rs.next()) {
                    String script = rs.getString(1);
                    int checksum = rs.getInt(2);
                    if (rs.wasNull() || !rs.getBoolean(3) || applied.put(script, checksum) != null) {
                        return false;
                    }
                }
            }
        } catch (SQLException e) {
            return false;
        }
        if (applied.size() != scripts.size()) {
            return false;
        }
        for (Script script : scripts) {
            Integer checksum = applied.get(script.getFilename());
            // Flyway's own checksum of the script (CRC-32 of its lines), so an edited file is told apart as Flyway would.
            if (checksum == null || checksum != ChecksumCalculator.calculate(script)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public LoadableResource getResource(String name) {
        return scripts.stream().filter(s -> s.getRelativePath().equals(name)).findFirst().orElse(null);
    }

    @Override
    public Collection<LoadableResource> getResources(String prefix, String[] suffixes) {
        List<LoadableResource> found = new ArrayList<>();
        for (Script s : scripts) {
            String name = s.getFilename();
            if (name.startsWith(prefix) && List.of(suffixes).stream().anyMatch(name::endsWith)) {
                found.add(s);
            }
        }
        return found;
    }

    private static String text(ClassLoader loader, String resource) {
        try (InputStream in = loader.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is not on the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    /** One migration file; its relative path is its name, as for Flyway's own class-path scan of the location. */
    private static final class Script extends LoadableResource {
        private final String name;
        private final URL url;

        Script(String name, URL url) {
            this.name = Objects.requireNonNull(name, "name");
            this.url = Objects.requireNonNull(url, "url");
        }

        @Override
        public Reader read() {
            try (InputStream in = url.openStream()) {
                return new StringReader(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the migration " + name, e);
            }
        }

        @Override
        public String getAbsolutePath() {
            return LOCATION + "/" + name;
        }

        @Override
        public String getAbsolutePathOnDisk() {
            return url.getPath();
        }

        @Override
        public String getFilename() {
            return name;
        }

        @Override
        public String getRelativePath() {
            return name;
        }
    }
}
