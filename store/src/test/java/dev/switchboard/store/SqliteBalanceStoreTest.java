package dev.switchboard.store;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The billing store contracts on SQLite, one fresh file per test. */
class SqliteBalanceStoreTest extends BalanceStoreContract {

    @TempDir
    Path dir;

    @Override
    protected TestDatabase createDatabase() {
        return TestDatabase.sqlite(dir.resolve("switchboard.db"));
    }
}
