package dev.switchboard.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@link Database#open} promises for the embedded SQLite default. */
class SqliteDatabaseTest {

    /** The versions of the migration files on the class path, in numeric order ("1 2 3 4 10 11"). */
    private static String shippedVersions() {
        try (var files = Files.list(Path.of(SqliteDatabaseTest.class.getClassLoader().getResource("db/migration").toURI()))) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.matches("V\\d+__.+\\.sql"))
                    .map(n -> Integer.parseInt(n.substring(1, n.indexOf("__")))).sorted().map(String::valueOf)
                    .collect(java.util.stream.Collectors.joining(" "));
        } catch (java.io.IOException | java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @TempDir
    Path dir;

    @Test
    void createsTheFileAndItsDirectoriesWithTheConnectionSettingsApplied() throws SQLException {
        Path file = dir.resolve("data/sub/switchboard.db");
        try (Database db = Database.open("sqlite:" + file)) {
            assertThat(file).exists();
            assertThat(db.kind()).isEqualTo(Database.Kind.SQLITE);
            try (Connection c = db.dataSource().getConnection()) {
                assertThat(pragma(c, "journal_mode")).isEqualTo("wal");
                assertThat(pragma(c, "foreign_keys")).isEqualTo("1");
                assertThat(pragma(c, "busy_timeout")).isEqualTo("10000");
            }
        }
    }

    @Test
    void migratesToTheLatestVersion() throws SQLException {
        try (Database db = Database.open("sqlite:" + dir.resolve("m.db"));
             Connection c = db.dataSource().getConnection();
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT version FROM flyway_schema_history WHERE success = 1 ORDER BY installed_rank")) {
            StringBuilder versions = new StringBuilder();
            while (rs.next()) {
                versions.append(rs.getString(1)).append(' ');
            }
            assertThat(versions.toString().strip()).as("every migration shipped, in order").isEqualTo(shippedVersions());
        }
    }

    @Test
    void anUnopenableFileIsAStoreErrorNamingIt() throws Exception {
        Path notADirectory = Files.writeString(dir.resolve("plain-file"), "x");
        assertThatThrownBy(() -> Database.open("sqlite:" + notADirectory.resolve("db.sqlite")))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining(notADirectory.toString());
    }

    @Test
    void anUnreachablePostgresIsAStoreErrorWithoutThePassword() {
        // Port 1 on loopback refuses at once.
        assertThatThrownBy(() -> Database.open("postgresql://u:hunter2@127.0.0.1:1/db"))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("postgresql://u:***@127.0.0.1:1/db")
                .hasMessageNotContaining("hunter2");
    }

    private static String pragma(Connection c, String name) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA " + name)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
