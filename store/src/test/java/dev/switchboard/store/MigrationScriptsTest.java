package dev.switchboard.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The migration index stands in for Flyway's own scan: the same files, the same names, the same checksums. */
class MigrationScriptsTest {

    @TempDir
    Path dir;

    @Test
    void theIndexListsEveryMigrationFileInVersionOrder() throws Exception {
        List<String> onDisk;
        try (var files = Files.list(Path.of(getClass().getClassLoader().getResource(MigrationScripts.LOCATION).toURI()))) {
            onDisk = files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".sql")).sorted().toList();
        }
        List<String> indexed = MigrationScripts.load(getClass().getClassLoader()).names();
        assertThat(indexed).as("every .sql file of db/migration is listed in db/migration/index.txt (add a new one there)")
                .containsExactlyInAnyOrderElementsOf(onDisk);
        assertThat(indexed).as("listed by version").isSortedAccordingTo(
                (a, b) -> Integer.compare(version(a), version(b)));
    }

    @Test
    void aDatabaseMigratedByFlywaysOwnScanOpensWithNothingToDoAndValidates() throws Exception {
        Path file = dir.resolve("scanned.db");
        Flyway.configure().dataSource("jdbc:sqlite:" + file, null, null).locations("classpath:" + MigrationScripts.LOCATION)
                .load().migrate();
        List<String> before = history(file);

        try (Database db = Database.open("sqlite:" + file)) {
            assertThat(db.kind()).isEqualTo(Database.Kind.SQLITE);
        }

        assertThat(history(file)).as("no migration run again, none added, checksums equal").isEqualTo(before);
        assertThat(before).hasSize(MigrationScripts.load(getClass().getClassLoader()).names().size());
    }

    private static int version(String name) {
        return Integer.parseInt(name.substring(1, name.indexOf("__")));
    }

    private static List<String> history(Path file) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT version, script, checksum, success FROM flyway_schema_history"
                     + " ORDER BY installed_rank")) {
            while (rs.next()) {
                rows.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getInt(3) + " " + rs.getInt(4));
            }
        }
        return rows;
    }
}
