package dev.switchboard.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;

/**
 * Group commit on SQLite's one writer: the short write transactions of concurrent callers run back to back in one
 * database transaction, each inside its own savepoint, and one {@code COMMIT} makes them all durable.
 *
 * <p>Why: on SQLite a billed request was two write transactions (the hold, then the charge and usage record), each
 * paying for its own {@code BEGIN IMMEDIATE} and {@code COMMIT}, and a commit writes every page the transaction
 * touched to the WAL. Concurrent requests touch the same pages (the user's row, the tails of the same indexes), so
 * writing them once per batch instead of once per request is most of the saving.
 *
 * <p>What each caller gets, exactly as from a transaction of its own:
 * <ul>
 *   <li>Its work runs whole, in arrival order, on the one connection, and sees everything the works before it in the
 *       batch wrote: conditional updates still decide in the database, one after another.</li>
 *   <li>A work that throws is rolled back to its savepoint: nothing it wrote stays, the works before and after it
 *       are untouched, and its caller gets its exception.</li>
 *   <li>A caller hears of success only after the {@code COMMIT} that holds its writes; when the commit (or anything
 *       outside the works: the connection, a savepoint) fails, every work of that batch fails, so nothing is
 *       reported done that was not committed.</li>
 * </ul>
 *
 * <p>No thread of its own: the first caller that finds no batch running leads. It yields once while batches are
 * shared (so that callers ready to run can join), takes the connection (in its turn, behind other users of
 * {@link OneWriterDataSource}), runs what is queued, at most {@value #MAX_BATCH} works,
 * commits, hands out the results and passes the lead to the oldest caller still waiting. Callers that come while a
 * batch runs form the next one. A work that has waited in the queue longer than the connection timeout when the next
 * batch forms does not run, and its caller gets the same {@link SQLTransientConnectionException} as a caller of the data
 * source would.
 *
 * <p>A work must not take another connection or enter this group commit again (it would wait for itself).
 */
final class GroupCommit {

    /** Bounds one batch, so that a long queue commits in steps and its first callers are answered early. */
    static final int MAX_BATCH = 128;
    /** While batches run alone, one leader in this many still yields, to notice when callers crowd in again. */
    private static final int PROBE_EVERY = 8;

    private final DataSource dataSource;
    private final long timeoutNanos;
    /** The batches' statements, prepared once: only the leader, which holds the connection, touches it. */
    private final StatementCache statements = new StatementCache();
    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by {@link #lock}; empty whenever {@link #leading} is false. */
    private final ArrayDeque<Pending<?>> queue = new ArrayDeque<>();
    /** Guarded by {@link #lock}: whether some caller is running, or about to run, a batch. */
    private boolean leading;
    /** Guarded by {@link #lock}: whether the last batch held more than one work (others are about: worth waiting for). */
    private boolean crowded;
    /** Guarded by {@link #lock}: batches since the last one whose leader yielded. */
    private int sinceProbe;

    GroupCommit(DataSource dataSource, long timeoutMillis) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    }

    /**
     * Runs {@code work} in the next batch and returns its result once that batch committed.
     *
     * @throws SQLException what the work threw, or why its batch did not commit
     * @throws RuntimeException what the work threw (unchanged)
     */
    <T> T run(Sql.Work<T> work) throws SQLException {
        Pending<T> pending = new Pending<>(Objects.requireNonNull(work, "work"));
        boolean lead;
        lock.lock();
        try {
            queue.addLast(pending);
            lead = !leading;
            leading = true;
        } finally {
            lock.unlock();
        }
        if (lead || awaitTurn(pending)) {
            leadOneBatch();
        }
        return pending.result();
    }

    /** How many works wait for a batch that has not started (for tests and diagnostics). */
    int queued() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until the work is done (false) or this caller is to lead the next batch (true). Not interruptible on
     * purpose: once queued, the work may run at any moment, and its caller must learn whether it did (a hold taken but
     * reported as failed would stay until the sweeper's deadline). Untimed: a wait that would outlast the timeout is
     * ended by the leader that forms the next batch ({@link #takeBatch}), so no timer is set per write (a timed park
     * of a virtual thread schedules and cancels one in the JDK's delay scheduler, which showed in the CPU profile).
     */
    private static boolean awaitTurn(Pending<?> pending) {
        return pending.turn.join();
    }

    private void leadOneBatch() {
        // Let the threads that are ready to run reach the queue first: virtual threads are not preempted, so on a
        // busy carrier a leader that went straight on would find nobody queued and commit alone every time (measured:
        // one work per batch). Only while batches are shared, plus one probe in PROBE_EVERY: a lone caller (one
        // request at a time) measured 13-20% more CPU per request with a yield and savepoints on every write.
        boolean yield;
        lock.lock();
        try {
            yield = crowded || ++sinceProbe >= PROBE_EVERY;
            if (yield) {
                sinceProbe = 0;
            }
        } finally {
            lock.unlock();
        }
        if (yield) {
            Thread.yield();
        }
        List<Pending<?>> batch = takeBatch();
        try {
            if (!batch.isEmpty()) {
                execute(batch);
            }
        } finally {
            lock.lock();
            try {
                if (queue.isEmpty()) {
                    leading = false;
                } else {
                    queue.peekFirst().turn.complete(true);
                }
            } finally {
                lock.unlock();
            }
            for (Pending<?> p : batch) {
                p.turn.complete(false);
            }
        }
    }

    /**
     * Takes the next batch off the queue. A work queued longer than the timeout does not run: its caller gets the
     * same "database busy" error as a caller of {@link OneWriterDataSource} that found no turn in time. The leader
     * runs its batch within a bounded time (its turn on the connection and SQLite's busy timeout are both bounded),
     * so checking here, each time a batch forms, bounds every wait without a timer per caller.
     */
    private List<Pending<?>> takeBatch() {
        List<Pending<?>> batch = new ArrayList<>();
        List<Pending<?>> tooLate = new ArrayList<>();
        int left;
        lock.lock();
        try {
            long now = System.nanoTime();
            while (batch.size() < MAX_BATCH && !queue.isEmpty()) {
                Pending<?> p = queue.pollFirst();
                (now - p.queuedAt > timeoutNanos ? tooLate : batch).add(p);
            }
            crowded = batch.size() > 1;
            left = queue.size();
        } finally {
            lock.unlock();
        }
        for (Pending<?> p : tooLate) {
            p.refuse(new SQLTransientConnectionException("the SQLite database is busy: no turn within "
                    + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms (" + left + " writes waiting)"));
        }
        return batch;
    }

    private void execute(List<Pending<?>> batch) {
        // One caller's interrupt must not fail the other callers' writes: the turn is taken uninterrupted.
        boolean interrupted = Thread.interrupted();
        boolean committed = false;
        try (Connection pooled = dataSource.getConnection()) {
            Connection c = statements.over(pooled);
            c.setAutoCommit(false);
            try {
                if (batch.size() == 1) {
                    // Alone, the work's transaction is the batch's: no savepoint (two statements fewer per write when
                    // requests come one at a time); its failure rolls back the transaction, which held nothing else.
                    if (batch.getFirst().runAlone(c)) {
                        c.commit();
                    } else {
                        c.rollback();
                    }
                } else {
                    for (Pending<?> p : batch) {
                        p.runIn(c);
                    }
                    c.commit();
                }
                committed = true;
            } catch (SQLException | RuntimeException | Error e) {
                rollbackQuietly(c, e);
                failAll(batch, e);
            } finally {
                // The SQLite driver opens the next transaction right after commit; end it before the connection goes back.
                c.setAutoCommit(true);
            }
        } catch (SQLException | RuntimeException | Error e) {
            if (!committed) {
                failAll(batch, e);
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Every work of the batch that has no failure of its own fails with {@code cause}: none of it was committed. */
    private static void failAll(List<Pending<?>> batch, Throwable cause) {
        for (Pending<?> p : batch) {
            p.batchFailed(batch.size(), cause);
        }
    }

    private static void rollbackQuietly(Connection c, Throwable cause) {
        try {
            c.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    /** One caller's work and, once its batch ran, its outcome; written by the leader before {@link #turn} completes. */
    private static final class Pending<T> {
        final Sql.Work<T> work;
        /** Completed by the leader: true when this caller is to lead the next batch, false when its work is done. */
        final CompletableFuture<Boolean> turn = new CompletableFuture<>();
        /** When its caller queued it ({@link System#nanoTime()}). */
        final long queuedAt = System.nanoTime();
        private T value;
        private Throwable failure;
        private boolean ran;

        Pending(Sql.Work<T> work) {
            this.work = work;
        }

        /**
         * Runs the work inside its own savepoint. Its own failure is kept and rolled back to the savepoint; a failure
         * to set, release or roll back the savepoint is thrown (the batch's transaction is then in doubt).
         */
        void runIn(Connection c) throws SQLException {
            execute(c, "SAVEPOINT one_write");
            T result;
            try {
                result = work.run(c);
            } catch (SQLException | RuntimeException | Error e) {
                failure = e;
                execute(c, "ROLLBACK TO one_write");
                execute(c, "RELEASE one_write");
                return;
            }
            // Released before the outcome is recorded: a failed RELEASE (the transaction gone) fails the whole batch.
            execute(c, "RELEASE one_write");
            value = result;
            ran = true;
        }

        private static void execute(Connection c, String savepointStatement) throws SQLException {
            try (PreparedStatement s = c.prepareStatement(savepointStatement)) {
                s.execute();
            }
        }

        /** Runs the work as the batch's only one: whether it succeeded (its failure is kept for its caller). */
        boolean runAlone(Connection c) {
            try {
                value = work.run(c);
                ran = true;
            } catch (SQLException | RuntimeException | Error e) {
                failure = e;
            }
            return ran;
        }

        /** Its caller waited too long: the work never runs, and the caller hears why. */
        void refuse(SQLException why) {
            failure = why;
            turn.complete(false);
        }

        void batchFailed(int size, Throwable cause) {
            if (failure != null) {
                return;
            }
            ran = false;
            value = null;
            SQLException e = new SQLException("not committed (" + size + " writes committed together): " + cause.getMessage(),
                    cause instanceof SQLException s ? s.getSQLState() : null, cause);
            failure = e;
        }

        T result() throws SQLException {
            if (failure instanceof SQLException e) {
                throw e;
            }
            if (failure instanceof RuntimeException e) {
                throw e;
            }
            if (failure instanceof Error e) {
                throw e;
            }
            if (!ran) {
                throw new IllegalStateException("a group commit result read before its batch ran");
            }
            return value;
        }
    }
}
