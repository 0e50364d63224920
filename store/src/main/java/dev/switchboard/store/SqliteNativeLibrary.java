package dev.switchboard.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.UUID;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.LibraryLoaderUtil;

/**
 * Loads the SQLite driver's native library the way the driver would, without its slow check.
 *
 * <p>The driver copies the library out of its jar into the temporary directory on every start and then compares the
 * copy with the original one byte at a time through two buffered streams: some 2.2 million calls that run interpreted
 * so early, about two fifths of opening the database. Here the library is read whole and written whole (a failed or
 * short write throws, which is what the comparison guards against), named and locked as the driver names its own copies
 * ({@code sqlite-VERSION-UUID-NAME} beside a {@code .lck} file, both deleted at exit), so the driver's clean-up of copies
 * a killed process left behind covers these too, and handed to the driver through its own {@code org.sqlite.lib.path}
 * and {@code org.sqlite.lib.name} properties.
 *
 * <p>Anything unusual (the properties already set by the operator, no library in the jar for this platform, an
 * unwritable temporary directory) leaves the loading to the driver, which reports its failures as it always did.
 */
final class SqliteNativeLibrary {
    private static final String PATH_PROPERTY = "org.sqlite.lib.path";
    private static final String NAME_PROPERTY = "org.sqlite.lib.name";

    private static boolean tried;

    private SqliteNativeLibrary() {
    }

    /** Loads the library, or leaves it to the driver, once per process; later calls return at once. Never throws. */
    static synchronized void load() {
        if (!tried) {
            tried = true;
            extractAndLoad();
        }
    }

    private static boolean extractAndLoad() {
        if (System.getProperty(PATH_PROPERTY) != null || System.getProperty(NAME_PROPERTY) != null) {
            return false;
        }
        String name = LibraryLoaderUtil.getNativeLibName();
        Path dir = Path.of(System.getProperty("org.sqlite.tmpdir", System.getProperty("java.io.tmpdir")));
        String copy = "sqlite-" + SQLiteJDBCLoader.getVersion() + "-" + UUID.randomUUID() + "-" + name;
        Path library = dir.resolve(copy);
        Path lock = dir.resolve(copy + ".lck");
        try (InputStream in = SQLiteJDBCLoader.class.getResourceAsStream(
                LibraryLoaderUtil.getNativeLibResourcePath() + "/" + name)) {
            if (in == null) {
                return false;
            }
            byte[] bytes = in.readAllBytes();
            Files.createFile(lock);
            lock.toFile().deleteOnExit();
            Files.createFile(library, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            library.toFile().deleteOnExit();
            Files.write(library, bytes);
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
        System.setProperty(PATH_PROPERTY, dir.toString());
        System.setProperty(NAME_PROPERTY, copy);
        try {
            return SQLiteJDBCLoader.initialize();
        } catch (Exception e) {
            // the driver tries again on its first connection and reports the failure there, as without this class
            return false;
        } finally {
            System.clearProperty(PATH_PROPERTY);
            System.clearProperty(NAME_PROPERTY);
        }
    }
}
