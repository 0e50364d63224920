package dev.switchboard.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What every store contract test shares: a fresh, empty database per test (the subclass says on which
 * engine) with a handle open on it, every handle closed afterwards, then the database removed.
 */
abstract class StoreContract {
    /** When the contracts' records are made; its milliseconds must survive every store. */
    protected static final Instant T0 = Instant.parse("2026-03-01T10:00:00.123Z");

    private final List<Database> opened = new ArrayList<>();
    /** The database of the running test. */
    protected TestDatabase testDatabase;
    /** A handle on it, open for the test. */
    protected Database database;

    /** Creates the empty database of one test. */
    protected abstract TestDatabase createDatabase() throws Exception;

    @BeforeEach
    final void createTestDatabase() throws Exception {
        testDatabase = createDatabase();
        database = open();
    }

    @AfterEach
    final void dropTestDatabase() throws Exception {
        opened.forEach(Database::close);
        testDatabase.drop();
    }

    /** A handle on the test's database (another one is what a second gateway instance would have). */
    protected final Database open() {
        Database d = Database.open(testDatabase.url());
        opened.add(d);
        return d;
    }
}
