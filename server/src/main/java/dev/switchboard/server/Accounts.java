package dev.switchboard.server;

import dev.switchboard.engine.account.AdminKeys;
import dev.switchboard.engine.account.AdminService;
import dev.switchboard.engine.account.ApiKeys;
import dev.switchboard.engine.account.DemoBootstrap;
import dev.switchboard.engine.account.Passwords;
import dev.switchboard.engine.account.Users;
import dev.switchboard.engine.defaults.DefaultsStore;
import dev.switchboard.engine.session.SessionPolicy;
import dev.switchboard.engine.session.Sessions;
import dev.switchboard.store.Database;
import dev.switchboard.store.JdbcAccountStore;
import dev.switchboard.store.JdbcCredentialStore;
import dev.switchboard.store.JdbcDefaultsStore;
import dev.switchboard.store.JdbcSessionStore;
import dev.switchboard.store.JdbcThrottleStore;
import java.time.Clock;
import java.util.Optional;

/**
 * The account services over one database, wired once: shared by the running gateway and the CLI twins
 * of the admin API, which work against the configured database without a server.
 */
public final class Accounts implements AutoCloseable {
    private final Database database;
    private final ApiKeys apiKeys;
    private final AdminKeys adminKeys;
    private final AdminService admin;
    private final DemoBootstrap demo;
    private final JdbcAccountStore store;
    private final DefaultsStore defaults;
    private final Users users;
    private final Clock clock;

    /** Opens (creating and migrating when needed) the database at {@code databaseUrl}. */
    public Accounts(String databaseUrl, Optional<String> configuredAdminKey, Clock clock) {
        this(Database.open(databaseUrl), configuredAdminKey, clock);
    }

    /** Over a database that must already hold Switchboard's data ({@link Database#openExisting}); for read commands. */
    public static Accounts existing(String databaseUrl, Optional<String> configuredAdminKey, Clock clock) {
        return new Accounts(Database.openExisting(databaseUrl), configuredAdminKey, clock);
    }

    private Accounts(Database database, Optional<String> configuredAdminKey, Clock clock) {
        this.database = database;
        this.store = new JdbcAccountStore(database);
        this.defaults = new JdbcDefaultsStore(database);
        this.apiKeys = new ApiKeys(store, clock);
        this.clock = clock;
        this.users = new Users(store, new Passwords(), clock);
        this.adminKeys = new AdminKeys(store, configuredAdminKey, clock);
        this.admin = new AdminService(store, users, apiKeys, clock);
        this.demo = new DemoBootstrap(store, users, apiKeys);
    }

    public Database database() {
        return database;
    }

    public ApiKeys apiKeys() {
        return apiKeys;
    }

    public AdminKeys adminKeys() {
        return adminKeys;
    }

    public AdminService admin() {
        return admin;
    }

    public DemoBootstrap demo() {
        return demo;
    }

    /** Dashboard sign-in over this database, with {@code policy}'s lifetimes and limits. */
    public Sessions sessions(SessionPolicy policy) {
        return new Sessions(store, new JdbcCredentialStore(database), new JdbcSessionStore(database),
                new JdbcThrottleStore(database), users, new Passwords(), policy, clock);
    }

    /** Whether a user with this id exists. */
    public boolean userExists(String userId) {
        return store.findUser(userId).isPresent();
    }

    /** Saved per-model default parameters. */
    public DefaultsStore defaults() {
        return defaults;
    }

    @Override
    public void close() {
        database.close();
    }
}
