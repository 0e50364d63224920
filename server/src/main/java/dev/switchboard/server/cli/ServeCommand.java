package dev.switchboard.server.cli;

import dev.switchboard.engine.account.DemoBootstrap;
import dev.switchboard.engine.account.IssuedKey;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.server.GatewayApp;
import dev.switchboard.server.config.GatewayConfig;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/**
 * Runs the gateway until SIGTERM or SIGINT, then stops gracefully: refuses new requests, lets running ones finish
 * within {@code http.shutdown_grace}, settles them, flushes the background writers and exits with status 0.
 */
@Command(name = "serve", mixinStandardHelpOptions = true, description = "Run the gateway (the default when no sub-command is given).")
final class ServeCommand implements Callable<Integer> {
    @ParentCommand
    Cli parent;

    @Override
    public Integer call() {
        return run(parent);
    }

    int run(Cli cli) {
        // before anything else: a SIGTERM during start-up must be a clean stop (status 0), not the JVM's 143
        StopSignal stop = StopSignal.install();
        GatewayApp app;
        // what needs no config is built on a second thread while the config is read (start-up time)
        try (GatewayApp.Prestart prestart = GatewayApp.Prestart.begin()) {
            app = GatewayApp.start(cli.loadConfig(), prestart);
        }
        GatewayConfig config = app.config();
        // any other way out (System.exit elsewhere, SIGHUP) still closes the database and flushes the writers
        Runtime.getRuntime().addShutdownHook(new Thread(app::close, "switchboard-shutdown"));
        banner(System.out, app);
        stop.await();
        app.drain(config.edge().shutdownGrace());
        app.close();
        return 0;
    }

    /** The start-up lines a person reads; the only place a generated key is ever shown, and only once. */
    static void banner(PrintStream out, GatewayApp app) {
        GatewayConfig c = app.config();
        List<ModelEntry> models = c.catalog().models();
        out.println("Switchboard listening on " + app.baseUrl() + "  (config: " + c.source() + ", database: "
                + c.databaseForDisplay() + ")");
        out.println("Models: " + models.size() + " (" + String.join(", ", models.stream().limit(8).map(ModelEntry::id).toList())
                + (models.size() > 8 ? ", ..." : "") + ")");
        GatewayApp.FirstStart first = app.firstStart();
        if (first.createdKeys()) {
            out.println();
            out.println("First start. These keys are shown once and stored only as hashes: keep them now.");
            first.adminKey().ifPresent(k -> out.println("  admin key: " + k));
            first.demoKey().ifPresent(k -> out.println("  demo key:  " + k.secret() + "   (user " + k.key().userId() + ")"));
            first.demoPassword().ifPresent(pw -> {
                out.println();
                out.println("Dashboard: " + app.dashboardUrl());
                out.println("  sign in as: " + DemoBootstrap.DEMO_USER + "   password: " + pw + "   (admin; change it under Account)");
            });
            String key = first.demoKey().map(IssuedKey::secret).orElse("<your API key>");
            String model = models.stream().map(ModelEntry::id).filter(id -> id.equals("switchboard-demo")).findFirst()
                    .orElse(models.isEmpty() ? "<model>" : models.getFirst().id());
            out.println();
            out.println("Try it:");
            out.println("  curl " + app.baseUrl() + "/v1/chat/completions \\");
            out.println("    -H 'Authorization: Bearer " + key + "' -H 'Content-Type: application/json' \\");
            out.println("    -d '{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Hello\"}]}'");
        }
        if (first.demoPassword().isEmpty()) {
            out.println("Dashboard: " + app.dashboardUrl() + "  (sign in with your user; `switchboard users passwd demo` sets a"
                    + " password)");
        }
        out.println();
        out.flush();
    }
}
