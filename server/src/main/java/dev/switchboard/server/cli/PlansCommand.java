package dev.switchboard.server.cli;

import dev.switchboard.server.admin.PlansAdminApi;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/** {@code switchboard plans}: the CLI twin of {@code GET /admin/v1/plans}, read from the config. */
@Command(name = "plans", mixinStandardHelpOptions = true,
        description = "The config's plans with the limits each sets per user, across the user's keys (GET /admin/v1/plans).")
final class PlansCommand implements Callable<Integer> {
    @ParentCommand
    Cli cli;

    @Override
    public Integer call() {
        cli.quietLogs();
        cli.out().println(PlansAdminApi.view(cli.loadConfig().catalog().plans()).toPrettyString());
        cli.out().flush();
        return 0;
    }
}
