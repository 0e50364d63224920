package dev.switchboard.store;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The idempotency store contracts on SQLite, one fresh file per test. */
class SqliteIdempotencyStoreTest extends IdempotencyStoreContract {
    @TempDir
    Path dir;

    @Override
    protected TestDatabase createDatabase() {
        return TestDatabase.sqlite(dir.resolve("switchboard.db"));
    }
}
