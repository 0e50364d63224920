package dev.switchboard.store;

import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/** The session store contracts on the real PostgreSQL server; only with {@code -Dswitchboard.test.postgres=true}. */
@EnabledIfSystemProperty(named = "switchboard.test.postgres", matches = "true")
class PostgresSessionStoreTest extends SessionStoreContract {
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
