package dev.switchboard.store;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The defaults store contracts on SQLite, one fresh file per test. */
class SqliteDefaultsStoreTest extends DefaultsStoreContract {

    @TempDir
    Path dir;

    @Override
    protected TestDatabase createDatabase() {
        return TestDatabase.sqlite(dir.resolve("nested/dir/switchboard.db"));
    }
}
