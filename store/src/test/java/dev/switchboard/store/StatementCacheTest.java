package dev.switchboard.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The group commit's statement cache on a real SQLite database: a statement is prepared once and lent again in later
 * batches, never to two borrowers at once, dropped after it failed or when the driver connection changes, bounded in
 * number, and leaves no statement running between batches (another connection can checkpoint the whole WAL).
 */
class StatementCacheTest {

    @TempDir
    Path dir;

    private Database database;
    private final StatementCache cache = new StatementCache();

    @BeforeEach
    void open() throws SQLException {
        database = Database.open("sqlite:" + dir.resolve("switchboard.db"));
        try (Connection c = database.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER NOT NULL)");
        }
    }

    @AfterEach
    void close() {
        cache.close();
        database.close();
    }

    @Test
    void aStatementIsPreparedOnceAndLentAgainInLaterBatches() throws SQLException {
        PreparedStatement first;
        PreparedStatement second;
        try (Connection pooled = database.dataSource().getConnection()) {
            Connection c = cache.over(pooled);
            try (PreparedStatement s = c.prepareStatement("INSERT INTO t (id, n) VALUES (?, ?)")) {
                s.setString(1, "a");
                s.setLong(2, 1);
                assertThat(s.executeUpdate()).isEqualTo(1);
                first = s.unwrap(PreparedStatement.class);
            }
        }
        try (Connection pooled = database.dataSource().getConnection()) {
            Connection c = cache.over(pooled);
            try (PreparedStatement s = c.prepareStatement("INSERT INTO t (id, n) VALUES (?, ?)")) {
                s.setString(1, "b");
                s.setLong(2, 2);
                assertThat(s.executeUpdate()).isEqualTo(1);
                second = s.unwrap(PreparedStatement.class);
            }
        }
        assertThat(second).isSameAs(first);
        assertThat(cache.size()).isEqualTo(1);
        assertThat(count()).isEqualTo(2);
    }

    @Test
    void aStatementLentAndNotGivenBackIsNotLentTwice() throws SQLException {
        try (Connection pooled = database.dataSource().getConnection()) {
            Connection c = cache.over(pooled);
            insert(c, "a", 1);
            try (PreparedStatement outer = c.prepareStatement("SELECT n FROM t WHERE id = ?");
                    PreparedStatement inner = c.prepareStatement("SELECT n FROM t WHERE id = ?")) {
                assertThat(inner.unwrap(PreparedStatement.class)).isNotSameAs(outer.unwrap(PreparedStatement.class));
                outer.setString(1, "a");
                inner.setString(1, "nobody");
                try (ResultSet o = outer.executeQuery(); ResultSet i = inner.executeQuery()) {
                    assertThat(o.next()).isTrue();
                    assertThat(o.getLong(1)).isEqualTo(1);
                    assertThat(i.next()).isFalse();
                }
            }
        }
    }

    @Test
    void aStatementThatFailedIsDroppedAndPreparedAfreshNextTime() throws SQLException {
        try (Connection pooled = database.dataSource().getConnection()) {
            Connection c = cache.over(pooled);
            insert(c, "a", 1);
            assertThat(cache.size()).isEqualTo(1);
            assertThatThrownBy(() -> insert(c, "a", 2)).isInstanceOf(SQLException.class).hasMessageContaining("UNIQUE");
            assertThat(cache.size()).isZero();
            insert(c, "b", 3);
            assertThat(cache.size()).isEqualTo(1);
        }
        assertThat(count()).isEqualTo(2);
    }

    @Test
    void aGivenBackStatementCannotBeUsedByItsFormerBorrower() throws SQLException {
        try (Connection pooled = database.dataSource().getConnection()) {
            Connection c = cache.over(pooled);
            PreparedStatement s = c.prepareStatement("SELECT COUNT(*) FROM t");
            s.close();
            assertThat(s.isClosed()).isTrue();
            assertThatThrownBy(s::executeQuery).isInstanceOf(SQLException.class).hasMessageContaining("closed");
        }
    }

    @Test
    void anotherDriverConnectionDropsEveryKeptStatement() throws SQLException {
        try (Connection pooled = database.dataSource().getConnection()) {
            insert(cache.over(pooled), "a", 1);
        }
        assertThat(cache.size()).isEqualTo(1);
        try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("switchboard.db"))) {
            Connection c = cache.over(other);
            assertThat(cache.size()).isZero();
            insert(c, "b", 2);
            assertThat(cache.size()).isEqualTo(1);
        }
    }

    @Test
    void atMostTheLimitIsKept() throws SQLException {
        try (Connection pooled = database.dataSource().getConnection()) {
            Connection c = cache.over(pooled);
            for (int i = 0; i < StatementCache.MAX_KEPT + 10; i++) {
                try (PreparedStatement s = c.prepareStatement("SELECT " + i + " FROM t")) {
                    s.executeQuery().close();
                }
            }
        }
        assertThat(cache.size()).isEqualTo(StatementCache.MAX_KEPT);
    }

    @Test
    void nothingKeptHoldsTheDatabaseBetweenBatches() throws SQLException {
        try (Connection pooled = database.dataSource().getConnection()) {
            Connection c = cache.over(pooled);
            c.setAutoCommit(false);
            insert(c, "a", 1);
            try (PreparedStatement s = c.prepareStatement("UPDATE t SET n = n + 1 WHERE id = ? RETURNING n")) {
                s.setString(1, "a");
                try (ResultSet rs = s.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                }
            }
            try (PreparedStatement s = c.prepareStatement("SELECT n FROM t")) {
                try (ResultSet rs = s.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                }
            }
            c.commit();
            c.setAutoCommit(true);
        }
        assertThat(cache.size()).isEqualTo(3);
        // A statement left running would keep a read snapshot open on the cached connection: the checkpoint could
        // then not copy the whole WAL back (busy = 1) and another writer would wait.
        anotherConnectionWritesAndCheckpointsTheWholeWal("busy");
        assertThat(count()).isEqualTo(2);
    }

    @Test
    void aResultSetLeftOpenIsClosedWhenItsStatementIsGivenBack() throws SQLException {
        try (Connection pooled = database.dataSource().getConnection()) {
            Connection c = cache.over(pooled);
            insert(c, "a", 1);
            insert(c, "b", 2);
            ResultSet leftOpen;
            try (PreparedStatement s = c.prepareStatement("SELECT n FROM t ORDER BY id")) {
                leftOpen = s.executeQuery();
                assertThat(leftOpen.next()).isTrue();
            }
            assertThat(leftOpen.isClosed()).as("closed with its statement, as a driver's statement would close it").isTrue();
        }
        anotherConnectionWritesAndCheckpointsTheWholeWal("busy: a statement left stepping holds a snapshot");
    }

    /** Inserts a row through a second connection, then checkpoints the whole WAL; {@code busy} must be 0. */
    private void anotherConnectionWritesAndCheckpointsTheWholeWal(String busy) throws SQLException {
        try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("switchboard.db"));
                Statement s = other.createStatement()) {
            s.execute("INSERT INTO t (id, n) VALUES ('z', 9)");
            try (ResultSet rs = s.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).as(busy).isZero();
            }
        }
    }

    private static void insert(Connection c, String id, long n) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO t (id, n) VALUES (?, ?)")) {
            s.setString(1, id);
            s.setLong(2, n);
            s.executeUpdate();
        }
    }

    private long count() throws SQLException {
        try (Connection c = database.dataSource().getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
