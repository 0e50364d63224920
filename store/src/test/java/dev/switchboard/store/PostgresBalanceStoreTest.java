package dev.switchboard.store;

import java.sql.SQLException;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/** The billing store contracts on PostgreSQL, where the pool gives real concurrency (a schema per test). */
@EnabledIfSystemProperty(named = "switchboard.test.postgres", matches = "true")
class PostgresBalanceStoreTest extends BalanceStoreContract {

    @Override
    protected TestDatabase createDatabase() throws SQLException {
        return TestDatabase.postgres();
    }
}
