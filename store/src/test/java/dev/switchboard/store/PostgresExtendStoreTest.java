package dev.switchboard.store;

import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/** The catalog store contracts on the real PostgreSQL server; only with {@code -Dswitchboard.test.postgres=true}. */
@EnabledIfSystemProperty(named = "switchboard.test.postgres", matches = "true")
class PostgresExtendStoreTest extends ExtendStoreContract {
    private final PostgresSchema schema = new PostgresSchema();

    @Override
    protected String createDatabase() throws Exception {
        return schema.create();
    }

    @Override
    protected void dropDatabase() throws Exception {
        schema.drop();
    }
}
