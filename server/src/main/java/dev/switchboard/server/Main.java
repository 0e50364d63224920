package dev.switchboard.server;

import dev.switchboard.server.cli.Cli;
import java.io.PrintWriter;
import java.util.OptionalInt;
import org.slf4j.bridge.SLF4JBridgeHandler;

/** Entry point: {@code switchboard [--config FILE] [serve | users ... | keys ...]}; serving is the default. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        // before anything starts a virtual thread: the scheduler reads its parallelism once
        VirtualThreadCarriers.apply();
        // Helidon logs through java.util.logging: route it into the same JSON log lines
        SLF4JBridgeHandler.removeHandlersForRootLogger();
        SLF4JBridgeHandler.install();
        // the server's own arguments skip picocli's reflective set-up (start-up time); every other command line uses it
        OptionalInt served = Cli.serveDirectly(args, System.getenv(), new PrintWriter(System.err, true));
        System.exit(served.isPresent() ? served.getAsInt() : Cli.commandLine().execute(args));
    }
}
