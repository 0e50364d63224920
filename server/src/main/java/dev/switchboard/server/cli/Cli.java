package dev.switchboard.server.cli;

import dev.switchboard.server.config.ConfigException;
import dev.switchboard.server.config.ConfigLoader;
import dev.switchboard.server.config.GatewayConfig;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code switchboard} command. Without a sub-command it serves; {@code users} and {@code keys} are the
 * CLI twins of the admin API, working directly on the configured database.
 */
@Command(name = "switchboard", mixinStandardHelpOptions = true, version = "switchboard 0.1.0",
        description = "Multi-format LLM chat gateway.",
        subcommands = {ServeCommand.class, UsersCommand.class, KeysCommand.class, ExtendCommand.class})
public final class Cli implements Callable<Integer> {

    @Option(names = "--config", paramLabel = "FILE", scope = CommandLine.ScopeType.INHERIT,
            description = "Config file (YAML). Default: $SWITCHBOARD_CONFIG, else the embedded default.")
    Optional<Path> config = Optional.empty();

    /** A command line with Switchboard's error handling: config problems print plainly, without a stack trace. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Cli());
        cl.setExecutionExceptionHandler((e, line, parsed) -> {
            line.getErr().println(e instanceof ConfigException ? e.getMessage() : "error: " + e.getMessage());
            return 2;
        });
        return cl;
    }

    @Override
    public Integer call() {
        return new ServeCommand().run(this);
    }

    /** The gateway config from {@code --config}, {@code SWITCHBOARD_CONFIG}, or the embedded default. */
    GatewayConfig loadConfig() {
        Map<String, String> env = System.getenv();
        Optional<Path> file = config.or(() -> Optional.ofNullable(env.get("SWITCHBOARD_CONFIG"))
                .filter(s -> !s.isBlank()).map(Path::of));
        return file.map(f -> ConfigLoader.load(f, env)).orElseGet(() -> ConfigLoader.embeddedDefault(env));
    }
}
