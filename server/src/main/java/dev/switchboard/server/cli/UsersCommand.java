package dev.switchboard.server.cli;

import dev.switchboard.engine.account.AccountException;
import dev.switchboard.engine.account.AdminService;
import dev.switchboard.engine.account.LedgerEntry;
import dev.switchboard.engine.account.User;
import dev.switchboard.server.Accounts;
import dev.switchboard.server.admin.AdminJson;
import dev.switchboard.server.config.GatewayConfig;
import dev.switchboard.wire.Json;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code switchboard users ...}: the CLI twins of the admin API's user operations. */
@Command(name = "users", description = "Create and inspect users (works on the configured database, no server needed).",
        subcommands = {UsersCommand.Create.class, UsersCommand.Show.class, UsersCommand.Credit.class, UsersPasswdCommand.class,
                UsersRoleCommand.class})
final class UsersCommand {
    @ParentCommand
    Cli cli;

    static Accounts open(Cli cli) {
        GatewayConfig config = cli.loadConfig();
        return new Accounts(config.database(), config.adminKey(), Clock.systemUTC());
    }

    /** Runs an account operation, printing its refusal the way the admin API would word it. */
    static int run(Cli cli, java.util.function.Function<Accounts, com.fasterxml.jackson.databind.JsonNode> op) {
        try (Accounts accounts = open(cli)) {
            System.out.println(Json.MAPPER.valueToTree(op.apply(accounts)).toPrettyString());
            return 0;
        } catch (AccountException e) {
            System.err.println("error: " + e.getMessage());
            return 1;
        }
    }

    @Command(name = "create", description = "Create a user (POST /admin/v1/users).")
    static final class Create implements Callable<Integer> {
        @ParentCommand
        UsersCommand users;
        @Option(names = "--name", required = true)
        String name;
        @Option(names = "--email")
        Optional<String> email = Optional.empty();
        @Option(names = "--plan", description = "Default: payg.")
        Optional<String> plan = Optional.empty();
        @Option(names = "--balance-usd", description = "Opening balance in USD, e.g. 25.50.")
        Optional<String> balance = Optional.empty();

        @Override
        public Integer call() {
            return run(users.cli, a -> {
                User u = a.admin().createUser(new AdminService.CreateUser(Optional.of(name), email, Optional.empty(), plan, balance));
                return AdminJson.user(u);
            });
        }
    }

    @Command(name = "show", description = "Show a user with its keys (GET /admin/v1/users/{id}).")
    static final class Show implements Callable<Integer> {
        @ParentCommand
        UsersCommand users;
        @Parameters(paramLabel = "USER_ID")
        String id;

        @Override
        public Integer call() {
            return run(users.cli, a -> {
                AdminService.UserDetails d = a.admin().getUser(id);
                var o = AdminJson.user(d.user());
                var keys = o.putArray("keys");
                d.keys().forEach(k -> keys.add(AdminJson.key(k)));
                return o;
            });
        }
    }

    @Command(name = "credit", description = "Add credit to a user (POST /admin/v1/users/{id}/credits).")
    static final class Credit implements Callable<Integer> {
        @ParentCommand
        UsersCommand users;
        @Parameters(paramLabel = "USER_ID")
        String id;
        @Option(names = "--amount-usd", required = true)
        String amount;
        @Option(names = "--note")
        Optional<String> note = Optional.empty();

        @Override
        public Integer call() {
            return run(users.cli, a -> {
                LedgerEntry e = a.admin().addCredits(id, new AdminService.AddCredits(Optional.of(amount), note));
                return AdminJson.ledger(e);
            });
        }
    }
}
