package dev.switchboard.store;

import java.sql.SQLException;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/** The session store contracts on PostgreSQL, a schema of their own per test (see {@link TestDatabase}). */
@EnabledIfSystemProperty(named = "switchboard.test.postgres", matches = "true")
class PostgresSessionStoreTest extends SessionStoreContract {

    @Override
    protected TestDatabase createDatabase() throws SQLException {
        return TestDatabase.postgres();
    }
}
