package dev.switchboard.testkit.it.soak;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A database of its own for one test, of the kind the test runs on: {@code sqlite}, a file in a new temporary
 * directory; {@code postgresql}, a {@link ScratchSchema}, and the test is skipped unless the PostgreSQL tests are on
 * ({@code -Dswitchboard.test.postgres=true}). Closing it deletes the directory or drops the schema, so a test that
 * runs once per kind sets up and cleans up the same way for both.
 */
public final class ScratchDatabase implements AutoCloseable {
    private final String url;
    private final Optional<Path> dir;
    private final Optional<ScratchSchema> schema;

    private ScratchDatabase(String url, Optional<Path> dir, Optional<ScratchSchema> schema) {
        this.url = url;
        this.dir = dir;
        this.schema = schema;
    }

    /** A fresh database of {@code kind} ({@code sqlite} or {@code postgresql}), its directory or schema named {@code prefix} and a random suffix. */
    public static ScratchDatabase create(String kind, String prefix) throws IOException, SQLException {
        return switch (kind) {
            case "sqlite" -> {
                Path dir = Files.createTempDirectory(prefix);
                yield new ScratchDatabase("sqlite:" + dir.resolve("switchboard.db"), Optional.of(dir), Optional.empty());
            }
            case "postgresql" -> {
                assumeTrue(Boolean.getBoolean("switchboard.test.postgres"), "PostgreSQL tests are off");
                ScratchSchema created = ScratchSchema.create(prefix);
                yield new ScratchDatabase(created.databaseUrl(), Optional.empty(), Optional.of(created));
            }
            default -> throw new IllegalArgumentException("a database kind is sqlite or postgresql, not " + kind);
        };
    }

    /** The gateway's {@code database:} URL. */
    public String url() {
        return url;
    }

    @Override
    public void close() throws SQLException {
        if (schema.isPresent()) {
            schema.get().close();
        }
        dir.ifPresent(ScratchDatabase::delete);
    }

    private static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a leftover temporary directory is harmless
        }
    }
}
