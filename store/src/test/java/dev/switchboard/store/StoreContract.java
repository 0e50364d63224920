package dev.switchboard.store;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What every store contract test shares: a fresh, empty database per test (the subclass says on which
 * engine), every handle opened on it closed afterwards, then the database removed.
 */
abstract class StoreContract {
    private final List<Database> opened = new ArrayList<>();
    /** The database of the running test. */
    protected TestDatabase testDatabase;

    /** Creates the empty database of one test. */
    protected abstract TestDatabase createDatabase() throws Exception;

    @BeforeEach
    final void createTestDatabase() throws Exception {
        testDatabase = createDatabase();
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
