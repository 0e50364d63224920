package dev.switchboard.store;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTransientConnectionException;
import java.util.Objects;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * SQLite's one pooled connection, handed to callers strictly in arrival order.
 *
 * <p>Why not leave the queueing to the pool: HikariCP hands a returned connection to a waiting thread
 * only if that thread is polling at that very moment. With one connection and thousands of virtual
 * threads waiting on two carrier threads (measured with 9,900 concurrent streams), the connection sat
 * idle while 2,300 callers timed out after 15 s, money settlements among them. A fair semaphore in front
 * parks callers in a FIFO queue and wakes exactly the next one, so the connection is never idle while
 * someone waits, and a caller waits for the work queued ahead of it, not for a lucky hand-off.
 *
 * <p>A caller that does not get its turn within the timeout gets a {@link SQLTransientConnectionException}
 * (the database is busy, not broken; see {@link StoreException#busyOrUnreachable()}).
 */
final class OneWriterDataSource implements DataSource {

    private final DataSource pool;
    private final long timeoutMillis;
    private final Semaphore turn = new Semaphore(1, true);

    OneWriterDataSource(DataSource pool, long timeoutMillis) {
        this.pool = Objects.requireNonNull(pool, "pool");
        this.timeoutMillis = timeoutMillis;
    }

    @Override
    public Connection getConnection() throws SQLException {
        try {
            if (!turn.tryAcquire(timeoutMillis, TimeUnit.MILLISECONDS)) {
                throw new SQLTransientConnectionException("the SQLite database is busy: no turn within " + timeoutMillis
                        + " ms (" + turn.getQueueLength() + " callers waiting)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLTransientConnectionException("interrupted while waiting for the SQLite database", e);
        }
        try {
            return released(pool.getConnection());
        } catch (SQLException | RuntimeException e) {
            turn.release();
            throw e;
        }
    }

    /** The connection, whose first {@code close()} also gives the turn to the next caller. */
    private Connection released(Connection connection) {
        AtomicBoolean closed = new AtomicBoolean();
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("close") && method.getParameterCount() == 0) {
                        try {
                            connection.close();
                        } finally {
                            if (closed.compareAndSet(false, true)) {
                                turn.release();
                            }
                        }
                        return null;
                    }
                    if (method.getName().equals("isClosed") && method.getParameterCount() == 0 && closed.get()) {
                        return true;
                    }
                    try {
                        return method.invoke(connection, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("SQLite's connection takes no credentials");
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return pool.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        pool.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        pool.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return pool.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return pool.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        return type.isInstance(this) ? type.cast(this) : pool.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return type.isInstance(this) || pool.isWrapperFor(type);
    }
}
