package dev.switchboard.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.engine.account.User;
import dev.switchboard.engine.billing.Balance;
import dev.switchboard.engine.billing.Hold;
import dev.switchboard.engine.billing.Reservation;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQLite's group commit keeps every caller's transaction its own: a failing work inside a batch takes back only its
 * own writes, a batch whose commit fails reports every work of it as failed, and concurrent reservations through it
 * hold exactly what fits.
 */
class GroupCommitTest {
    private static final long USD = 1_000_000_000L;
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    @TempDir
    Path dir;

    private Database database;
    private GroupCommit group;
    private final ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor();
    /** Lets the batch of {@link #batchHeldOpen} finish. */
    private final CountDownLatch release = new CountDownLatch(1);

    @BeforeEach
    void open() throws SQLException {
        database = Database.open("sqlite:" + dir.resolve("switchboard.db"));
        group = database.groupCommit().orElseThrow();
        try (Connection c = database.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id TEXT PRIMARY KEY)");
            s.execute("CREATE TABLE parent (id TEXT PRIMARY KEY)");
            s.execute("CREATE TABLE child (id TEXT PRIMARY KEY, parent_id TEXT REFERENCES parent (id)"
                    + " DEFERRABLE INITIALLY DEFERRED)");
        }
    }

    @AfterEach
    void close() {
        release.countDown();
        callers.close();
        database.close();
    }

    @Test
    void aWorkThatFailsInsideABatchTakesBackOnlyItsOwnWrites() throws Exception {
        Future<String> first = batchHeldOpen();
        Future<String> before = queue(c -> insert(c, "b"));
        Future<String> duplicate = queue(c -> {
            insert(c, "c");
            return insert(c, "b"); // violates the key: its own "c" must go with it
        });
        Future<Integer> after = queue(c -> {
            insert(c, "d");
            // "b" comes from the same batch and is not committed yet: another connection must not see it
            return committedRows("b");
        });
        release.countDown();

        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("a");
        assertThat(before.get(10, TimeUnit.SECONDS)).isEqualTo("b");
        assertThatThrownBy(() -> duplicate.get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(Sql.uniqueViolation((SQLException) e.getCause())).isPresent());
        assertThat(after.get(10, TimeUnit.SECONDS)).as("b and d were written in one uncommitted transaction").isZero();
        assertThat(rows()).containsExactlyInAnyOrder("a", "b", "d");
    }

    @Test
    void whenABatchDoesNotCommitEveryWorkOfItFailsAndNothingOfItStays() throws Exception {
        Future<String> first = batchHeldOpen();
        List<Future<String>> batch = new ArrayList<>();
        batch.add(queue(c -> insert(c, "b")));
        // Succeeds as a work; its foreign key is checked only at COMMIT, which then fails for the whole batch.
        batch.add(queue(c -> {
            try (PreparedStatement s = c.prepareStatement("INSERT INTO child (id, parent_id) VALUES ('x', 'missing')")) {
                s.executeUpdate();
            }
            return "x";
        }));
        batch.add(queue(c -> insert(c, "d")));
        release.countDown();

        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("a");
        for (Future<String> f : batch) {
            assertThatThrownBy(() -> f.get(10, TimeUnit.SECONDS)).as("reported as not committed")
                    .hasCauseInstanceOf(SQLException.class).hasMessageContaining("not committed");
        }
        assertThat(rows()).containsExactly("a");
        String next = group.run(c -> insert(c, "e"));
        assertThat(next).as("the next batch commits as usual").isEqualTo("e");
        assertThat(rows()).containsExactlyInAnyOrder("a", "e");
    }

    @Test
    void aWorkQueuedLongerThanTheTimeoutDoesNotRunAndItsCallerHearsTheDatabaseIsBusy() throws Exception {
        group = new GroupCommit(database.dataSource(), 200);
        Future<String> first = batchHeldOpen();
        Future<String> late = queue(c -> insert(c, "late"));
        Thread.sleep(400);
        release.countDown();

        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("a");
        assertThatThrownBy(() -> late.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(SQLTransientConnectionException.class)
                .hasMessageContaining("the SQLite database is busy: no turn within 200 ms");
        String fresh = group.run(c -> insert(c, "fresh"));
        assertThat(fresh).as("a work that did not wait long runs").isEqualTo("fresh");
        assertThat(rows()).containsExactlyInAnyOrder("a", "fresh");
    }

    @Test
    void manyConcurrentReservationsOfOneUserHoldExactlyWhatFitsAndReportExactlyThat() throws Exception {
        JdbcAccountStore accounts = new JdbcAccountStore(database);
        JdbcBalanceStore store = new JdbcBalanceStore(database);
        accounts.createUser(new User("u1", "u1", Optional.empty(), "payg", 37 * USD + USD / 2, T0), Optional.empty());
        int count = 300;
        Set<String> reportedHeld = ConcurrentHashMap.newKeySet();
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Reservation>> results = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String id = "r" + i;
                results.add(pool.submit(() -> {
                    start.await();
                    Reservation r = store.reserve(new Hold(id, "u1", "key_1", USD, T0.plus(Duration.ofHours(1)), T0));
                    if (r.held()) {
                        reportedHeld.add(id);
                    }
                    return r;
                }));
            }
            start.countDown();
            for (Future<Reservation> f : results) {
                assertThat(f.get(30, TimeUnit.SECONDS)).isIn(Reservation.HELD, Reservation.SHORT_OF_BALANCE);
            }
        }

        assertThat(reportedHeld).hasSize(37);
        assertThat(store.balance("u1")).contains(new Balance(37 * USD + USD / 2, 37 * USD));
        assertThat(holdIds()).as("what was reported held is exactly what is held").isEqualTo(reportedHeld);
    }

    /**
     * Runs a batch whose one work (inserting "a") waits for {@link #release}, and returns once it runs: the works
     * queued meanwhile form the next batch together.
     */
    private Future<String> batchHeldOpen() throws InterruptedException {
        CountDownLatch running = new CountDownLatch(1);
        Future<String> first = callers.submit(() -> group.run(c -> {
            running.countDown();
            awaitUninterrupted(release);
            return insert(c, "a");
        }));
        running.await();
        return first;
    }

    private static void awaitUninterrupted(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Submits the work and returns once it waits in the queue (behind the batch held open). */
    private <T> Future<T> queue(Sql.Work<T> work) throws InterruptedException {
        int before = group.queued();
        Future<T> result = callers.submit(() -> group.run(work));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (group.queued() <= before) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the work never queued");
            }
            Thread.sleep(1);
        }
        return result;
    }

    private static String insert(Connection c, String id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO t (id) VALUES (?)")) {
            s.setString(1, id);
            s.executeUpdate();
        }
        return id;
    }

    /** Rows with that id as a second, independent connection sees them (committed ones only). */
    private int committedRows(String id) throws SQLException {
        try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("switchboard.db"));
             PreparedStatement s = other.prepareStatement("SELECT COUNT(*) FROM t WHERE id = ?")) {
            s.setString(1, id);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private List<String> rows() throws SQLException {
        return strings("SELECT id FROM t");
    }

    private Set<String> holdIds() throws SQLException {
        return Set.copyOf(strings("SELECT request_id FROM holds"));
    }

    private List<String> strings(String query) throws SQLException {
        try (Connection c = database.dataSource().getConnection(); PreparedStatement s = c.prepareStatement(query);
             ResultSet rs = s.executeQuery()) {
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out;
        }
    }
}
