package dev.switchboard.store;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.io.TempDir;

/** The account store contracts on SQLite, one fresh file per test. */
class SqliteAccountStoreTest extends AccountStoreContract {

    @TempDir
    Path dir;

    @Override
    protected String createDatabase() {
        return "sqlite:" + dir.resolve("nested/dir/switchboard.db");
    }

    @Override
    protected void dropDatabase() {
        // @TempDir removes the file.
    }

    @Override
    protected void failLedgerInserts(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TRIGGER fail_ledger BEFORE INSERT ON ledger BEGIN SELECT RAISE(ABORT, 'ledger disabled by test'); END");
        }
    }
}
