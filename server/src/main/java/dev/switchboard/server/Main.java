package dev.switchboard.server;

import dev.switchboard.server.cli.Cli;
import picocli.CommandLine;

/** Entry point: {@code switchboard [--config FILE] [serve | users ... | keys ...]}; serving is the default. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        System.exit(Cli.commandLine().execute(args));
    }
}
