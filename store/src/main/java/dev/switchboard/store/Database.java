package dev.switchboard.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An open, migrated database: a HikariCP pool plus the schema brought up to date by Flyway (which is not even set
 * up when the database already records every migration: {@link MigrationScripts#allApplied}).
 *
 * <p>SQLite (the embedded default) gets one pooled connection, WAL journaling, foreign keys, and
 * {@code BEGIN IMMEDIATE} transactions with a busy timeout: one connection serializes this process's
 * work, which is all SQLite can do with writes anyway, and immediate transactions make a second
 * process (the CLI next to a running server) wait its turn instead of failing on a lock upgrade.
 * PostgreSQL gets a pool of {@value #POSTGRES_POOL_SIZE}; several instances may open it at once
 * (Flyway serializes migrations with an advisory lock).
 *
 * <p>Code using {@link #dataSource()} directly must not take a second connection while holding one:
 * on SQLite that would wait for itself.
 */
public final class Database implements AutoCloseable {

    /** Which engine is behind the URL. */
    public enum Kind {
        SQLITE,
        POSTGRESQL
    }

    static final int POSTGRES_POOL_SIZE = 10;
    private static final int BUSY_TIMEOUT_MILLIS = 10_000;
    private static final long CONNECTION_TIMEOUT_MILLIS = 15_000;
    private static final Logger LOG = LoggerFactory.getLogger(Database.class);

    private final HikariDataSource pool;
    private final DataSource connections;
    private final Optional<GroupCommit> groupCommit;
    private final Kind kind;
    private final String description;

    private Database(HikariDataSource pool, Kind kind, String description) {
        this.pool = pool;
        this.connections = kind == Kind.SQLITE ? new OneWriterDataSource(pool, CONNECTION_TIMEOUT_MILLIS) : pool;
        // PostgreSQL runs concurrent transactions itself; only SQLite's one writer gains from committing them together.
        this.groupCommit = kind == Kind.SQLITE
                ? Optional.of(new GroupCommit(connections, CONNECTION_TIMEOUT_MILLIS))
                : Optional.empty();
        this.kind = kind;
        this.description = description;
    }

    /**
     * Opens the database named by the config's {@code database:} value and applies any pending
     * migrations. A SQLite file and its parent directories are created when missing.
     *
     * @param url {@code sqlite:<path>}, {@code postgresql://user:password@host:port/database}, or a
     *            {@code jdbc:} URL of either
     * @throws IllegalArgumentException when the URL is not one of those forms (the message shows it
     *         with the password masked)
     * @throws StoreException when the database cannot be reached or migrated
     */
    public static Database open(String url) {
        return open(url, false);
    }

    /**
     * Opens a database that Switchboard has already set up (for commands that only read): never creates a
     * SQLite file, and refuses a database without Switchboard's tables, so that a wrong path or URL is an
     * error instead of a fresh, empty database that answers "nothing there".
     *
     * @throws StoreException when there is no such database, or it holds no Switchboard schema
     */
    public static Database openExisting(String url) {
        return open(url, true);
    }

    private static Database open(String url, boolean mustExist) {
        DatabaseUrl parsed = DatabaseUrl.parse(Objects.requireNonNull(url, "url"));
        if (mustExist && parsed.sqliteFile().filter(f -> !Files.isRegularFile(f)).isPresent()) {
            throw new StoreException("there is no database at " + parsed.sqliteFile().get().toAbsolutePath()
                    + " (start the gateway once to create it, or name the one it uses with --config or SWITCHBOARD_HOME)", null);
        }
        parsed.sqliteFile().ifPresent(Database::createParentDirectories);
        if (parsed.kind() == Kind.SQLITE) {
            SqliteNativeLibrary.load();
        }
        HikariDataSource pool;
        try {
            pool = new HikariDataSource(config(parsed));
        } catch (RuntimeException e) {
            String reason = rootMessage(e);
            if (parsed.sqliteFile().isPresent() && reason.contains("SQLITE_CANTOPEN")) {
                reason = "the file cannot be created or opened: it is a directory, or its directory is not writable";
            }
            throw new StoreException("cannot open database " + parsed.redacted() + ": " + reason, e);
        }
        MigrationScripts scripts = MigrationScripts.load(Database.class.getClassLoader());
        if (scripts.allApplied(pool)) {
            LOG.info("database {} ready, its schema up to date ({} migrations, none pending)", parsed.redacted(),
                    scripts.names().size());
            return new Database(pool, parsed.kind(), parsed.redacted());
        }
        try {
            Flyway flyway = Flyway.configure()
                    .dataSource(pool)
                    .locations("classpath:" + MigrationScripts.LOCATION)
                    .resourceProvider(scripts)
                    .javaMigrationClassProvider(List::of)
                    .failOnMissingLocations(true)
                    .validateMigrationNaming(true)
                    .load();
            if (mustExist && flyway.info().applied().length == 0) {
                pool.close();
                throw new StoreException("the database " + parsed.redacted() + " holds no Switchboard data (start the "
                        + "gateway on it once, or check the URL)", null);
            }
            var result = flyway.migrate();
            LOG.info("database {} ready at schema version {} ({} migrations applied now)", parsed.redacted(),
                    result.targetSchemaVersion == null ? "current" : result.targetSchemaVersion, result.migrationsExecuted);
        } catch (FlywayException e) {
            pool.close();
            throw new StoreException("cannot migrate database " + parsed.redacted() + ": " + rootMessage(e), e);
        }
        return new Database(pool, parsed.kind(), parsed.redacted());
    }

    /** The pooled data source, for store implementations in this module (SQLite's: one caller at a time, in arrival order). */
    public DataSource dataSource() {
        return connections;
    }

    /** SQLite's group commit of short write transactions (one per database); empty on PostgreSQL. */
    Optional<GroupCommit> groupCommit() {
        return groupCommit;
    }

    public Kind kind() {
        return kind;
    }

    /**
     * Whether the database answers right now (for {@code /ready}). Never throws; waits at most the
     * pool's connection timeout when every connection is busy.
     */
    public boolean ping() {
        try (Connection c = connections.getConnection()) {
            return c.isValid(2);
        } catch (SQLException | RuntimeException e) {
            LOG.warn("database {} did not answer: {}", description, rootMessage(e));
            return false;
        }
    }

    /** Closes every pooled connection; idempotent. */
    @Override
    public void close() {
        pool.close();
    }

    @Override
    public String toString() {
        return "Database[" + description + "]";
    }

    private static HikariConfig config(DatabaseUrl url) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url.jdbcUrl());
        url.user().ifPresent(config::setUsername);
        url.password().ifPresent(config::setPassword);
        config.setConnectionTimeout(CONNECTION_TIMEOUT_MILLIS);
        switch (url.kind()) {
            case SQLITE -> {
                config.setPoolName("switchboard-sqlite");
                config.setMaximumPoolSize(1);
                // Read by the SQLite driver on every new connection.
                config.addDataSourceProperty("journal_mode", "WAL");
                config.addDataSourceProperty("synchronous", "NORMAL");
                config.addDataSourceProperty("foreign_keys", "true");
                config.addDataSourceProperty("busy_timeout", String.valueOf(BUSY_TIMEOUT_MILLIS));
                config.addDataSourceProperty("transaction_mode", "IMMEDIATE");
                // Savepoint journals in memory, not in a temporary file per batch (open, write, unlink: measured as
                // system calls inside every billed request's writes under group commit).
                config.addDataSourceProperty("temp_store", "MEMORY");
                // The driver would otherwise run SELECT last_insert_rowid() after every INSERT for getGeneratedKeys,
                // which no store uses: one statement more per row written.
                config.addDataSourceProperty("jdbc.get_generated_keys", "false");
            }
            case POSTGRESQL -> {
                config.setPoolName("switchboard-postgresql");
                config.setMaximumPoolSize(POSTGRES_POOL_SIZE);
                config.addDataSourceProperty("ApplicationName", "switchboard");
            }
        }
        return config;
    }

    private static void createParentDirectories(Path file) {
        Path parent = file.toAbsolutePath().getParent();
        try {
            Files.createDirectories(parent);
        } catch (FileAlreadyExistsException e) {
            throw new StoreException("cannot create the data directory " + parent + " for the SQLite database: "
                    + e.getFile() + " is a file, not a directory", e);
        } catch (IOException e) {
            throw new StoreException("cannot create the data directory " + parent + " for the SQLite database: "
                    + describe(e), e);
        }
        if (!Files.isWritable(parent) || Files.exists(file) && !Files.isWritable(file)) {
            throw new StoreException("the data directory " + parent + " is not writable (the SQLite database "
                    + file.getFileName() + " lives there)", null);
        }
    }

    private static String describe(IOException e) {
        return switch (e) {
            case AccessDeniedException a -> "permission denied";
            case FileSystemException f when f.getReason() != null -> f.getReason().toLowerCase(java.util.Locale.ROOT);
            default -> String.valueOf(e.getMessage());
        };
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }
}
