package dev.switchboard.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.Optional;
import javax.sql.DataSource;
import org.postgresql.util.PSQLException;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/** Connection handling shared by the JDBC stores: autocommit reads, all-or-nothing transactions. */
final class Sql {

    /** Work done on one connection. */
    @FunctionalInterface
    interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private final DataSource dataSource;
    private final Optional<GroupCommit> groupCommit;

    Sql(DataSource dataSource) {
        this.dataSource = dataSource;
        this.groupCommit = Optional.empty();
    }

    /** On the database's connections, with its group commit (SQLite) for {@link #grouped}. */
    Sql(Database database) {
        this.dataSource = database.dataSource();
        this.groupCommit = database.groupCommit();
    }

    /** Runs {@code work} in autocommit mode; {@code operation} names it in errors. */
    <T> T read(String operation, Work<T> work) {
        try (Connection c = dataSource.getConnection()) {
            return work.run(c);
        } catch (SQLException e) {
            throw new StoreException(operation + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * Runs {@code work} in one transaction: committed when it returns, rolled back when it throws
     * anything (an {@code AccountException} from inside passes through unchanged).
     */
    <T> T transaction(String operation, Work<T> work) {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                T result = work.run(c);
                c.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(c, e);
                throw e;
            } finally {
                // The SQLite driver opens the next transaction right after commit; end it before pooling.
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new StoreException(operation + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * Runs {@code work} as {@link #transaction} does, all or nothing, and on SQLite committed together with the
     * concurrent callers' grouped works (see {@link GroupCommit}): for short, frequent writes on the request path.
     * The work's exceptions reach the caller as from {@link #transaction}.
     */
    <T> T grouped(String operation, Work<T> work) {
        if (groupCommit.isEmpty()) {
            return transaction(operation, work);
        }
        try {
            return groupCommit.get().run(work);
        } catch (SQLException e) {
            throw new StoreException(operation + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * The name of the unique index or key that {@code e} reports violated: the constraint name on
     * PostgreSQL, {@code table.column} on SQLite. Empty when {@code e} is not a unique violation.
     */
    static Optional<String> uniqueViolation(SQLException e) {
        if (e instanceof PSQLException p && "23505".equals(p.getSQLState())) {
            String constraint = p.getServerErrorMessage() == null ? null : p.getServerErrorMessage().getConstraint();
            return Optional.of(constraint == null ? String.valueOf(p.getMessage()) : constraint);
        }
        if (e instanceof SQLiteException s && (s.getResultCode() == SQLiteErrorCode.SQLITE_CONSTRAINT_UNIQUE
                || s.getResultCode() == SQLiteErrorCode.SQLITE_CONSTRAINT_PRIMARYKEY)) {
            return Optional.of(String.valueOf(s.getMessage()));
        }
        return Optional.empty();
    }

    /**
     * Binds {@code params} to the statement's parameters in order from parameter {@code first} on, as the stores
     * keep them: text as text, {@code Integer} and {@code Long} as integers, {@code Boolean} as 1 or 0,
     * {@code Instant} as epoch milliseconds. Absent values have no place here: bind them with
     * {@link #setOptionalText} and its like.
     */
    static void bind(PreparedStatement s, int first, Object... params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            int index = first + i;
            switch (params[i]) {
                case String v -> s.setString(index, v);
                case Integer v -> s.setInt(index, v);
                case Long v -> s.setLong(index, v);
                case Boolean v -> s.setInt(index, v ? 1 : 0);
                case Instant v -> s.setLong(index, v.toEpochMilli());
                default -> throw new IllegalArgumentException("no SQL binding for a " + params[i].getClass().getName());
            }
        }
    }

    /** Runs {@code statement} with {@code params} bound (see {@link #bind}); how many rows it changed. */
    static int update(Connection c, String statement, Object... params) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(statement)) {
            bind(s, 1, params);
            return s.executeUpdate();
        }
    }

    static void setOptionalText(PreparedStatement s, int index, Optional<String> value) throws SQLException {
        if (value.isPresent()) {
            s.setString(index, value.get());
        } else {
            s.setNull(index, Types.VARCHAR);
        }
    }

    static void setOptionalLong(PreparedStatement s, int index, Optional<Long> value) throws SQLException {
        if (value.isPresent()) {
            s.setLong(index, value.get());
        } else {
            s.setNull(index, Types.BIGINT);
        }
    }

    static Optional<Long> optionalLong(ResultSet rs, String column) throws SQLException {
        long v = rs.getLong(column);
        return rs.wasNull() ? Optional.empty() : Optional.of(v);
    }

    private static void rollbackQuietly(Connection c, Exception cause) {
        try {
            c.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }
}
