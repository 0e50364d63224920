package dev.switchboard.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.flywaydb.core.api.ResourceProvider;
import org.flywaydb.core.api.resource.LoadableResource;

/**
 * The schema migrations, read from the class path by name: {@value #INDEX} lists the files of {@value #LOCATION},
 * one per line, and Flyway gets them from here instead of finding them itself.
 *
 * <p>Why: to find the migrations, Flyway walks every entry of the jar they are in; in the gateway's one jar that is
 * some 15,000 entries, read on every start before the database is usable (about a quarter of the migration step's
 * start-up time). A name looked up is one hash probe. The scripts, their names and so their checksums are the same
 * as Flyway's own scan gives, so databases migrated before this class validate unchanged. A migration file missing
 * from the index is caught by the store's tests, which compare the index with the directory.
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
