package dev.switchboard.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Runs a prepared query and reads its rows into values: every row, or the first. The caller binds and closes the statement. */
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

    /** The query's first row, or empty when it has none. */
    static <T> Optional<T> first(PreparedStatement s, Reader<T> row) throws SQLException {
        try (ResultSet rs = s.executeQuery()) {
            return rs.next() ? Optional.of(row.read(rs)) : Optional.empty();
        }
    }
}
