package dev.switchboard.server.cli;

import dev.switchboard.engine.extend.CatalogStore;
import dev.switchboard.engine.extend.Curation;
import dev.switchboard.model.GatewayException;
import dev.switchboard.server.config.GatewayConfig;
import dev.switchboard.server.extend.ExtendAdminApi;
import dev.switchboard.server.extend.SeedFiles;
import dev.switchboard.store.Database;
import dev.switchboard.store.JdbcCatalogStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code switchboard extend import FILE} and {@code extend export}: the operator's catalog as a seed file (YAML or
 * JSON), the CLI twins of {@code POST /admin/v1/extend/import} and {@code GET /admin/v1/extend/export}. They work
 * on the configured database; a running gateway sees the result at once.
 */
@Command(name = "extend", mixinStandardHelpOptions = true, description = "Import or export the public catalog (skills, MCP servers, marketplaces, characters,"
        + " plugins) as a seed file.", subcommands = {ExtendCommand.Import.class, ExtendCommand.Export.class})
final class ExtendCommand {
    @ParentCommand
    Cli cli;

    private static int withCuration(Cli cli, java.util.function.Function<Curation, Integer> op) {
        GatewayConfig config = cli.loadConfig();
        try (Database database = Database.open(config.database())) {
            return op.apply(new Curation(new JdbcCatalogStore(database), Clock.systemUTC()));
        } catch (GatewayException e) {
            cli.err().println("error: " + e.getMessage());
            return 1;
        }
    }

    @Command(name = "import", mixinStandardHelpOptions = true, description = "Import a seed file. Entries with an existing id are replaced (counts kept)"
            + " unless --mode keep.")
    static final class Import implements Callable<Integer> {
        @ParentCommand
        ExtendCommand extend;
        @Parameters(paramLabel = "FILE", description = "YAML or JSON seed; artifact files are relative to it.")
        Path file;
        @Option(names = "--mode", description = "replace (default) or keep.")
        String mode = "replace";

        @Override
        public Integer call() {
            CatalogStore.OnConflict onConflict;
            switch (mode.toLowerCase(Locale.ROOT)) {
                case "replace" -> onConflict = CatalogStore.OnConflict.REPLACE;
                case "keep" -> onConflict = CatalogStore.OnConflict.KEEP;
                default -> {
                    extend.cli.err().println("error: --mode must be replace or keep");
                    return 1;
                }
            }
            return withCuration(extend.cli, curation -> {
                Curation.ImportReport report = curation.importSeed(SeedFiles.read(file, Clock.systemUTC().instant()), onConflict);
                extend.cli.out().println(ExtendAdminApi.report(report).toPrettyString());
                return 0;
            });
        }
    }

    @Command(name = "export", mixinStandardHelpOptions = true, description = "Write every operator entry (official skills, MCP servers, marketplaces,"
            + " characters, plugins with their files) as a seed.")
    static final class Export implements Callable<Integer> {
        @ParentCommand
        ExtendCommand extend;
        @Option(names = "--format", description = "yaml (default) or json.")
        String format = "yaml";
        @Option(names = "--output", paramLabel = "FILE", description = "Write here instead of standard output.")
        Optional<Path> output = Optional.empty();

        @Override
        public Integer call() {
            return withCuration(extend.cli, curation -> {
                byte[] text = SeedFiles.write(curation.export(), format);
                try {
                    if (output.isPresent()) {
                        Files.write(output.get(), text);
                    } else {
                        // the command line's writer (standard output unless redirected), not System.out directly
                        extend.cli.out().print(new String(text, StandardCharsets.UTF_8));
                        extend.cli.out().flush();
                    }
                } catch (IOException e) {
                    extend.cli.err().println("error: " + e.getMessage());
                    return 1;
                }
                return 0;
            });
        }
    }
}
