package dev.switchboard.store;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import org.sqlite.SQLiteConnection;
import org.sqlite.jdbc4.JDBC4PreparedStatement;

/**
 * The prepared statements of {@link GroupCommit}'s batches, kept on SQLite's one connection from batch to batch.
 *
 * <p>Why: the request path's writes are the same few statements every time, and preparing them again for each request
 * (SQLite parses and plans a statement on every {@code prepareStatement}) was 11% of a billed request's CPU, measured by
 * a CPU profile at 32 concurrent requests. The works of a batch still write {@code c.prepareStatement(sql)} in
 * {@code try}-with-resources as anywhere else: the connection they are given answers from this cache, and closing what
 * it lent only clears the parameters and returns the statement.
 *
 * <p>What keeps it correct:
 * <ul>
 *   <li>Statements are prepared on the driver's own connection (SQLite's: only SQLite has the group commit), under
 *       the pool's wrapper, so the pool does not close them when its wrapper is returned, and dropped, all of them,
 *       as soon as the pool hands out another driver connection (the old one was retired or replaced).</li>
 *   <li>A statement lent and not yet closed is never lent again: a second use of the same text meanwhile gets a
 *       statement of its own, prepared and closed as usual.</li>
 *   <li>Giving a statement back closes a result set its borrower left open (as closing a driver's statement does),
 *       so no kept statement stays stepping between uses.</li>
 *   <li>A statement that threw is closed for good when its borrower closes it, and prepared afresh the next time.</li>
 *   <li>At most {@value #MAX_KEPT} are kept; the least recently used one beyond that is closed.</li>
 * </ul>
 * Not thread-safe: only the batch's leader, which holds the connection, uses it.
 */
final class StatementCache implements AutoCloseable {

    static final int MAX_KEPT = 64;

    /** The driver's connection the kept statements belong to. */
    private SQLiteConnection driver;
    private final LinkedHashMap<String, Kept> kept = new LinkedHashMap<>(32, 0.75f, true);

    /**
     * {@code pooled} (a connection from the pool, open until the batch ends) with {@code prepareStatement(String)}
     * answered from the cache; every other call goes to {@code pooled} unchanged.
     */
    Connection over(Connection pooled) throws SQLException {
        SQLiteConnection current = pooled.unwrap(SQLiteConnection.class);
        if (current != driver) {
            closeAll();
            driver = current;
        }
        // A proxy of java.sql.Connection is the class OneWriterDataSource's wrapper already uses: no new class.
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("prepareStatement") && args != null && args.length == 1
                            && args[0] instanceof String sql) {
                        return lend(pooled, sql);
                    }
                    return invoke(pooled, method, args);
                });
    }

    /** How many statements are kept (for tests). */
    int size() {
        return kept.size();
    }

    /** Closes every kept statement. */
    @Override
    public void close() {
        closeAll();
        driver = null;
    }

    private PreparedStatement lend(Connection pooled, String sql) throws SQLException {
        Kept k = kept.get(sql);
        if (k != null && k.lent) {
            return pooled.prepareStatement(sql);
        }
        if (k == null) {
            k = new Kept(driver, sql);
            kept.put(sql, k);
            evictBeyondLimit();
        }
        k.lent = true;
        return k;
    }

    private void evictBeyondLimit() {
        Iterator<Kept> oldest = kept.values().iterator();
        while (kept.size() > MAX_KEPT && oldest.hasNext()) {
            Kept k = oldest.next();
            if (!k.lent) {
                oldest.remove();
                k.discard();
            }
        }
    }

    private void closeAll() {
        List<Kept> all = new ArrayList<>(kept.values());
        kept.clear();
        for (Kept k : all) {
            k.discard();
        }
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /**
     * A statement kept for the next borrower: the driver's own prepared statement, whose {@code close()} gives it back
     * instead of finalizing it. A subclass rather than a wrapper, so that lending it costs no proxy class or reflective
     * call (a proxy measured about 35 ms more to a cold start's first answer, spent making the proxy's class and its
     * method handles on the first request).
     */
    private final class Kept extends JDBC4PreparedStatement {
        final String text;
        boolean lent;
        /** It threw while executing: closed for good when given back. */
        boolean failed;

        Kept(SQLiteConnection connection, String sql) throws SQLException {
            super(connection, sql);
            this.text = sql;
        }

        @Override
        public void close() throws SQLException {
            if (!lent) {
                return;
            }
            lent = false;
            if (failed) {
                kept.remove(text, this);
                discard();
                return;
            }
            // As closing a statement closes its result set: one left open would keep the statement stepping, and
            // with it a read snapshot that stops checkpoints and other writers.
            if (rs.isOpen()) {
                rs.close();
            }
            clearParameters();
        }

        @Override
        public boolean isClosed() {
            return !lent || super.isClosed();
        }

        /** Finalizes the driver's statement. */
        void discard() {
            try {
                super.close();
            } catch (SQLException | RuntimeException e) {
                // the statement of a connection already closed: nothing left to free
            }
        }

        @Override
        public ResultSet executeQuery() throws SQLException {
            return watched(super::executeQuery);
        }

        @Override
        public int executeUpdate() throws SQLException {
            return watched(super::executeUpdate);
        }

        @Override
        public long executeLargeUpdate() throws SQLException {
            return watched(super::executeLargeUpdate);
        }

        @Override
        public boolean execute() throws SQLException {
            return watched(super::execute);
        }

        /** Runs one execution of the lent statement, remembering a failure (the statement is then not kept). */
        private <T> T watched(Execution<T> execution) throws SQLException {
            checkLent();
            try {
                return execution.run();
            } catch (SQLException | RuntimeException e) {
                failed = true;
                throw e;
            }
        }

        private void checkLent() throws SQLException {
            if (!lent) {
                throw new SQLException("statement already closed: " + text);
            }
        }
    }

    @FunctionalInterface
    private interface Execution<T> {
        T run() throws SQLException;
    }

    /** For diagnostics: the texts kept, least recently used first. */
    @Override
    public String toString() {
        return "StatementCache" + kept.keySet();
    }
}
