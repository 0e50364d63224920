package dev.switchboard.testkit.soak;

import dev.switchboard.store.Database;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The money of the soak's user as the gateway's database holds it after a run: every ledger charge and usage
 * record by request id, the credits, the balance and what is held of it, and the open holds. Read straight from
 * the tables (the gateway may be stopped), so nothing in the product's reading code stands between the oracle and
 * the rows.
 */
record MoneyBook(Map<String, List<Long>> charges, Map<String, UsageRow> usage, long credits, long balance, long held,
                 List<String> openHolds) {

    /** One usage record: what the gateway billed a request for. */
    record UsageRow(String provider, long input, long output, long cost, long charged, String provenance, String status) {
    }

    /** The ledger charges per request id (each negative in the ledger, here as the positive amount). */
    long chargeSum() {
        return charges.values().stream().flatMap(List::stream).mapToLong(Long::longValue).sum();
    }

    static MoneyBook read(String databaseUrl, String userId) throws SQLException {
        try (Database database = Database.openExisting(databaseUrl); Connection c = database.dataSource().getConnection()) {
            Map<String, List<Long>> charges = new HashMap<>();
            long credits = 0;
            try (PreparedStatement st = c.prepareStatement(
                    "SELECT kind, amount_nanos, request_id FROM ledger WHERE user_id = ?")) {
                st.setString(1, userId);
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        if (rs.getString(1).equals("CHARGE")) {
                            String rid = rs.getString(3);
                            charges.computeIfAbsent(rid == null ? "(none)" : rid, k -> new ArrayList<>()).add(-rs.getLong(2));
                        } else {
                            credits += rs.getLong(2);
                        }
                    }
                }
            }
            Map<String, UsageRow> usage = new HashMap<>();
            try (PreparedStatement st = c.prepareStatement("SELECT request_id, provider, input_tokens, output_tokens, "
                    + "cost_nanos, charged_nanos, provenance, status FROM usage_records WHERE user_id = ?")) {
                st.setString(1, userId);
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        usage.put(rs.getString(1), new UsageRow(rs.getString(2), rs.getLong(3), rs.getLong(4), rs.getLong(5),
                                rs.getLong(6), rs.getString(7), rs.getString(8)));
                    }
                }
            }
            long balance;
            long held;
            try (PreparedStatement st = c.prepareStatement("SELECT balance_nanos, held_nanos FROM users WHERE id = ?")) {
                st.setString(1, userId);
                try (ResultSet rs = st.executeQuery()) {
                    if (!rs.next()) {
                        throw new IllegalStateException("the soak user " + userId + " is not in the database");
                    }
                    balance = rs.getLong(1);
                    held = rs.getLong(2);
                }
            }
            return new MoneyBook(charges, usage, credits, balance, held, openHolds(c));
        }
    }

    /** The request ids of the holds still open, for anyone. */
    static List<String> openHolds(String databaseUrl) throws SQLException {
        try (Database database = Database.openExisting(databaseUrl); Connection c = database.dataSource().getConnection()) {
            return openHolds(c);
        }
    }

    private static List<String> openHolds(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement st = c.prepareStatement("SELECT request_id FROM holds"); ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
