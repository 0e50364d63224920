package dev.switchboard.testkit.soak;

import dev.switchboard.store.Database;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * After a soak: dumps every row of every table of the gateway's database as text, reads the whole gateway log,
 * and reports each secret the run made (keys, the password, the session cookie) found in either. A secret must
 * never be stored or logged in plain text; only hashes and short prefixes may be.
 */
final class SecretScan {
    private SecretScan() {
    }

    static void scan(String databaseUrl, Path log, List<String> secrets, SoakReport.Builder report) throws IOException,
            SQLException {
        String dump = dump(databaseUrl);
        String logText = Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        for (String secret : secrets) {
            String kind = secret.startsWith("sk-sb-admin") ? "admin key" : secret.startsWith("sk-provider") ? "provider key"
                    : secret.startsWith("pw-") ? "password" : secret.startsWith("sk-") ? "API key" : "session token";
            if (dump.contains(secret)) {
                report.violation(-1, "the database holds a plaintext " + kind);
            }
            if (logText.contains(secret)) {
                report.violation(-1, "the log holds a plaintext " + kind);
            }
        }
        report.secrets(secrets.size(), dump.length(), logText.length());
    }

    private static String dump(String databaseUrl) throws SQLException {
        StringBuilder out = new StringBuilder();
        try (Database database = Database.open(databaseUrl); Connection c = database.dataSource().getConnection()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = c.getMetaData().getTables(null, c.getSchema(), "%", new String[] {"TABLE"})) {
                while (rs.next()) {
                    tables.add(rs.getString("TABLE_NAME"));
                }
            }
            for (String table : tables) {
                try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM \"" + table + "\"")) {
                    int columns = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        out.append(table).append(':');
                        for (int i = 1; i <= columns; i++) {
                            out.append(rs.getString(i)).append('|');
                        }
                        out.append('\n');
                    }
                }
            }
        }
        return out.toString();
    }
}
