package dev.switchboard.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
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

    @Test
    void aDatabaseHoldingEveryMigrationIsRecognisedWithoutFlywayAndAnyDifferenceIsNot() throws Exception {
        Path file = dir.resolve("checked.db");
        MigrationScripts scripts = MigrationScripts.load(getClass().getClassLoader());
        DataSource sqlite = dataSource(file);
        assertThat(scripts.allApplied(sqlite)).as("no history table yet").isFalse();
        Flyway.configure().dataSource("jdbc:sqlite:" + file, null, null).locations("classpath:" + MigrationScripts.LOCATION)
                .load().migrate();
        assertThat(scripts.allApplied(sqlite)).as("migrated by Flyway's own scan: the checksums are Flyway's").isTrue();

        String last = scripts.names().getLast();
        execute(file, "UPDATE flyway_schema_history SET checksum = checksum + 1 WHERE script = '" + last + "'");
        assertThat(scripts.allApplied(sqlite)).as("a script edited since it was applied").isFalse();
        execute(file, "UPDATE flyway_schema_history SET checksum = checksum - 1 WHERE script = '" + last + "'");
        assertThat(scripts.allApplied(sqlite)).isTrue();

        execute(file, "UPDATE flyway_schema_history SET success = 0 WHERE script = '" + last + "'");
        assertThat(scripts.allApplied(sqlite)).as("a failed migration").isFalse();
        execute(file, "UPDATE flyway_schema_history SET success = 1 WHERE script = '" + last + "'");

        execute(file, "INSERT INTO flyway_schema_history (installed_rank, version, description, type, script, checksum,"
                + " installed_by, execution_time, success) VALUES (999, '999', 'later', 'SQL', 'V999__later.sql', 1, 'x', 0, 1)");
        assertThat(scripts.allApplied(sqlite)).as("a migration of a later build").isFalse();
        execute(file, "DELETE FROM flyway_schema_history WHERE installed_rank = 999");
        execute(file, "DELETE FROM flyway_schema_history WHERE script = '" + last + "'");
        assertThat(scripts.allApplied(sqlite)).as("a migration still to apply").isFalse();
    }

    @Test
    void aDatabaseMissingTheLatestMigrationIsMigratedOnOpen() throws Exception {
        Path file = dir.resolve("behind.db");
        List<String> names = MigrationScripts.load(getClass().getClassLoader()).names();
        String before = String.valueOf(version(names.get(names.size() - 2)));
        Flyway.configure().dataSource("jdbc:sqlite:" + file, null, null).locations("classpath:" + MigrationScripts.LOCATION)
                .target(before).load().migrate();
        assertThat(history(file)).hasSize(names.size() - 1);

        try (Database db = Database.open("sqlite:" + file)) {
            assertThat(db.kind()).isEqualTo(Database.Kind.SQLITE);
        }

        assertThat(history(file)).hasSize(names.size()).last().asString().startsWith(version(names.getLast()) + " " + names.getLast());
        assertThat(MigrationScripts.load(getClass().getClassLoader()).allApplied(dataSource(file))).isTrue();
    }

    @Test
    @EnabledIfSystemProperty(named = "switchboard.test.postgres", matches = "true")
    void onPostgresqlOnlyTheCurrentSchemasHistoryCounts() throws Exception {
        TestDatabase.Postgres migrated = (TestDatabase.Postgres) TestDatabase.postgres();
        TestDatabase.Postgres empty = (TestDatabase.Postgres) TestDatabase.postgres();
        try {
            try (Database db = Database.open(migrated.url())) {
                assertThat(MigrationScripts.load(getClass().getClassLoader()).allApplied(db.dataSource())).isTrue();
            }
            // The empty schema first, the migrated one after it on the search path: its history is not this database's.
            String both = empty.url() + "," + migrated.schema();
            try (Database db = Database.open(both); Connection c = db.dataSource().getConnection(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*) FROM " + empty.schema() + ".flyway_schema_history")) {
                rs.next();
                assertThat(rs.getInt(1)).as("the empty schema was migrated")
                        .isEqualTo(MigrationScripts.load(getClass().getClassLoader()).names().size());
            }
        } finally {
            migrated.drop();
            empty.drop();
        }
    }

    private static DataSource dataSource(Path file) {
        org.sqlite.SQLiteDataSource ds = new org.sqlite.SQLiteDataSource();
        ds.setUrl("jdbc:sqlite:" + file);
        return ds;
    }

    private static void execute(Path file, String statement) throws Exception {
        try (Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            s.executeUpdate(statement);
        }
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
