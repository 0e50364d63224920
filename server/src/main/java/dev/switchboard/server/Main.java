package dev.switchboard.server;

import dev.switchboard.server.cli.Cli;
import org.slf4j.bridge.SLF4JBridgeHandler;

/** Entry point: {@code switchboard [--config FILE] [serve | users ... | keys ...]}; serving is the default. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        // Helidon logs through java.util.logging: route it into the same JSON log lines
        SLF4JBridgeHandler.removeHandlersForRootLogger();
        SLF4JBridgeHandler.install();
        System.exit(Cli.commandLine().execute(args));
    }
}
