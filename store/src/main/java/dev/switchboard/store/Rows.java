package dev.switchboard.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs a query and reads its rows into values: every row, or the first. Either on a prepared statement the
 * caller binds and closes, or on a query and its parameters (bound by {@link Sql#bind}).
 */
final class Rows {
    private Rows() {
    }

    /** One row as a value, read at the result set's current row. */
    @FunctionalInterface
    interface Reader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    /** Every row of the query, in the order it gives them. */
    static <T> List<T> all(PreparedStatement s, Reader<T> row) throws SQLException {
        try (ResultSet rs = s.executeQuery()) {
            List<T> out = new ArrayList<>();
            while (rs.next()) {
                out.add(row.read(rs));
            }
            return out;
        }
    }

    /** Every row of {@code query} run with {@code params} bound (see {@link Sql#bind}), in the order it gives them. */
    static <T> List<T> all(Connection c, String query, Reader<T> row, Object... params) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(query)) {
            Sql.bind(s, 1, params);
            return all(s, row);
        }
    }

    /** The first row of {@code query} run with {@code params} bound (see {@link Sql#bind}), or empty when it has none. */
    static <T> Optional<T> first(Connection c, String query, Reader<T> row, Object... params) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(query)) {
            Sql.bind(s, 1, params);
            return first(s, row);
        }
    }

    /** The query's first row, or empty when it has none. */
    static <T> Optional<T> first(PreparedStatement s, Reader<T> row) throws SQLException {
        try (ResultSet rs = s.executeQuery()) {
            return rs.next() ? Optional.of(row.read(rs)) : Optional.empty();
        }
    }
}
