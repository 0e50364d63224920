package dev.switchboard.testkit.it;

import dev.switchboard.server.GatewayApp;
import dev.switchboard.server.config.GatewayConfig;
import dev.switchboard.testkit.it.soak.ScratchDatabase;
import java.io.IOException;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Gateway instances sharing one scratch database, for a test about what one instance sees of another's work.
 * Register it on an instance field ({@code @RegisterExtension final GatewayInstances instances = ...}): after each
 * test it closes every instance the test started, then drops the database. Instances may be started from several
 * threads at once; an instance the test closed itself is closed again harmlessly.
 */
public final class GatewayInstances implements AfterEachCallback {
    private final String prefix;
    private final List<GatewayApp> started = new ArrayList<>();
    private Optional<ScratchDatabase> database = Optional.empty();

    /** Instances on databases whose directory or schema is named {@code prefix} and a random suffix. */
    public GatewayInstances(String prefix) {
        this.prefix = prefix;
    }

    /**
     * A fresh database of {@code kind} ({@code sqlite}, or {@code postgresql}: the test is skipped unless the
     * PostgreSQL tests are on), its {@code database:} URL. A test calling it again starts over: the instances it
     * started so far are closed and the earlier database dropped first.
     */
    public String database(String kind) throws IOException, SQLException {
        close();
        ScratchDatabase created = ScratchDatabase.create(kind, prefix);
        database = Optional.of(created);
        return created.url();
    }

    /** Starts an instance of {@code config} on a free port, with the system clock. */
    public GatewayApp start(GatewayConfig config) {
        return kept(GatewayApp.start(config, 0));
    }

    /** Starts an instance of {@code config} on a free port, reading time from {@code clock}. */
    public GatewayApp start(GatewayConfig config, Clock clock) {
        return kept(GatewayApp.start(config, 0, GatewayApp.PortDecorators.NONE, clock));
    }

    /** The instances started since the last {@link #database}, in the order they started. */
    public List<GatewayApp> started() {
        synchronized (started) {
            return List.copyOf(started);
        }
    }

    private GatewayApp kept(GatewayApp app) {
        synchronized (started) {
            started.add(app);
        }
        return app;
    }

    @Override
    public void afterEach(ExtensionContext context) throws SQLException {
        close();
    }

    private void close() throws SQLException {
        started().forEach(GatewayApp::close);
        synchronized (started) {
            started.clear();
        }
        if (database.isPresent()) {
            database.get().close();
            database = Optional.empty();
        }
    }
}
