package dev.switchboard.store;

import java.sql.SQLException;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/** The idempotency store contracts on PostgreSQL, a schema of their own per test (see {@link TestDatabase}). */
@EnabledIfSystemProperty(named = "switchboard.test.postgres", matches = "true")
class PostgresIdempotencyStoreTest extends IdempotencyStoreContract {

    @Override
    protected TestDatabase createDatabase() throws SQLException {
        return TestDatabase.postgres();
    }
}
