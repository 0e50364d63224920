package dev.switchboard.store;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The session store contracts on SQLite, one fresh file per test. */
class SqliteSessionStoreTest extends SessionStoreContract {
    @TempDir
    Path dir;

    @Override
    protected String createDatabase() {
        return "sqlite:" + dir.resolve("switchboard.db");
    }

    @Override
    protected void dropDatabase() {
        // @TempDir removes the file.
    }
}
