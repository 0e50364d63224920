package dev.switchboard.server.cli;

import dev.switchboard.server.StartupException;
import dev.switchboard.server.config.ConfigException;
import dev.switchboard.server.config.ConfigLoader;
import dev.switchboard.server.config.GatewayConfig;
import dev.switchboard.server.logging.CommandLogging;
import java.io.PrintWriter;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The {@code switchboard} command. Without a sub-command it serves; {@code users} and {@code keys} are the
 * CLI twins of the admin API, working directly on the configured database.
 *
 * <p>A relative SQLite path ({@code sqlite:data/switchboard.db}, the default) is resolved against the
 * Switchboard home, {@code $SWITCHBOARD_HOME} (the {@code ./switchboard} launcher sets it to its own
 * directory), else the working directory: the server and every CLI command find the same database
 * wherever they are started from.
 */
@Command(name = "switchboard", mixinStandardHelpOptions = true, version = "switchboard 0.1.0",
        description = "Multi-format LLM chat gateway.",
        subcommands = {ServeCommand.class, UsersCommand.class, KeysCommand.class, ExtendCommand.class, UsageCommand.class, PlansCommand.class},
        footer = {"", "Exit status: 0 ok, 1 unexpected failure, 2 config or usage problem, 3 cannot listen, "
                + "4 database unreachable or not writable (or, for commands that only read, not created yet)."})
public final class Cli implements Callable<Integer> {
    /** The environment variable naming the directory relative SQLite paths are resolved against. */
    public static final String HOME_VARIABLE = "SWITCHBOARD_HOME";

    @Option(names = "--config", paramLabel = "FILE", scope = CommandLine.ScopeType.INHERIT,
            description = "Config file (YAML). Default: $SWITCHBOARD_CONFIG, else the embedded default.")
    Optional<Path> config = Optional.empty();

    private final Map<String, String> env;
    @Spec
    CommandSpec spec;

    Cli(Map<String, String> env) {
        this.env = env;
    }

    /** A command line with Switchboard's error handling: one line on stderr and an exit status, never a stack trace. */
    public static CommandLine commandLine() {
        return commandLine(System.getenv());
    }

    /** As {@link #commandLine()}, reading {@code env} instead of the process environment (tests). */
    public static CommandLine commandLine(Map<String, String> env) {
        CommandLine cl = new CommandLine(new Cli(env));
        cl.setExecutionExceptionHandler((e, line, parsed) -> exitStatus(e, line.getErr()));
        return cl;
    }

    /**
     * Serves without building picocli's command model when the arguments are exactly the serving ones: none,
     * {@code serve}, and {@code --config FILE} (or {@code --config=FILE}) at most once, in any order. picocli reads
     * every command's annotations by reflection before it parses anything, about a tenth of a start-up's work; the
     * server path does not need it. Anything else (help, another command, a typo, a repeated option) is empty and
     * goes through {@link #commandLine()}, which parses and reports it as always. Failures end the same way as there:
     * one line on {@code err} and the same exit status.
     */
    public static OptionalInt serveDirectly(String[] args, Map<String, String> env, PrintWriter err) {
        Optional<Path> config = Optional.empty();
        boolean serve = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String value;
            if (a.equals("serve") && !serve) {
                serve = true;
                continue;
            } else if (a.equals("--config") && i + 1 < args.length && !args[i + 1].startsWith("-")) {
                value = args[++i];
            } else if (a.startsWith("--config=")) {
                value = a.substring("--config=".length());
            } else {
                return OptionalInt.empty();
            }
            if (config.isPresent() || value.isEmpty()) {
                return OptionalInt.empty();
            }
            try {
                config = Optional.of(Path.of(value));
            } catch (InvalidPathException e) {
                return OptionalInt.empty();
            }
        }
        Cli cli = new Cli(env);
        cli.config = config;
        try {
            return OptionalInt.of(new ServeCommand().run(cli));
        } catch (RuntimeException e) {
            return OptionalInt.of(exitStatus(e, err));
        }
    }

    /** How a command that threw ends: one line on {@code err}, never a stack trace, and the exit status of its cause. */
    private static int exitStatus(Exception e, PrintWriter err) {
        switch (e) {
            case ConfigException c -> {
                err.println(c.getMessage());
                return StartupException.CONFIG;
            }
            case StartupException s -> {
                err.println("switchboard: " + s.getMessage());
                return s.exitCode();
            }
            default -> {
                err.println("switchboard: unexpected failure: " + e);
                return 1;
            }
        }
    }

    @Override
    public Integer call() {
        return new ServeCommand().run(this);
    }

    /**
     * The gateway config from {@code --config}, {@code SWITCHBOARD_CONFIG}, or the embedded default, with a
     * relative SQLite path resolved against the Switchboard home.
     */
    GatewayConfig loadConfig() {
        Optional<Path> file = config.or(() -> Optional.ofNullable(env.get("SWITCHBOARD_CONFIG"))
                .filter(s -> !s.isBlank()).map(Path::of));
        GatewayConfig loaded = file.map(f -> ConfigLoader.load(f, env)).orElseGet(() -> ConfigLoader.embeddedDefault(env));
        return loaded.withDatabaseUnder(home());
    }

    /** For commands other than serving: warnings and errors only, unless SWITCHBOARD_LOG_LEVEL asks for more. */
    void quietLogs() {
        CommandLogging.quiet(env);
    }

    /** Where commands print their answers (stdout, unless a test redirected it). */
    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    /** Where commands print refusals. */
    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    private Path home() {
        return Optional.ofNullable(env.get(HOME_VARIABLE)).filter(s -> !s.isBlank()).map(Path::of)
                .orElseGet(() -> Path.of("").toAbsolutePath());
    }
}
