package dev.switchboard.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.engine.account.AdminService;
import dev.switchboard.engine.account.User;
import dev.switchboard.server.Accounts;
import dev.switchboard.server.admin.AdminJson;
import dev.switchboard.server.config.GatewayConfig;
import dev.switchboard.engine.catalog.Plan;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code switchboard users ...}: the CLI twins of the admin API's user operations. */
@Command(name = "users", mixinStandardHelpOptions = true,
        description = "Create, list and inspect users (works on the configured database, no server needed).",
        subcommands = {UsersCommand.ListUsers.class, UsersCommand.Create.class, UsersCommand.Show.class,
                UsersCommand.Credit.class, UsersCommand.SetPlan.class, UsersCommand.Ledger.class, UsersPasswdCommand.class,
                UsersRoleCommand.class})
final class UsersCommand {
    /** For {@code users passwd} and {@code users role}, which read their input before opening the database. */
    @ParentCommand
    Cli cli;

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List users, oldest first (GET /admin/v1/users).")
    static final class ListUsers extends AccountCommand {
        @Option(names = "--page", description = "Zero-based page. Default: 0.")
        int page = 0;
        @Option(names = "--limit", description = "Users per page, 1 to 100. Default: 30.")
        int limit = AdminService.DEFAULT_PAGE;

        @Override
        JsonNode answer(Accounts a) {
            return AdminJson.userPage(a.admin().listUsers(page, limit));
        }
    }

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Create a user (POST /admin/v1/users).")
    static final class Create extends AccountCommand {
        @Option(names = "--name", required = true)
        String name;
        @Option(names = "--email")
        Optional<String> email = Optional.empty();
        @Option(names = "--plan", description = "Default: payg.")
        Optional<String> plan = Optional.empty();
        @Option(names = "--balance-usd", description = "Opening balance in USD, e.g. 25.50.")
        Optional<String> balance = Optional.empty();

        @Override
        boolean mayCreate() {
            return true;
        }

        @Override
        JsonNode answer(Accounts a) {
            User u = a.admin().createUser(new AdminService.CreateUser(Optional.of(name), email, Optional.empty(), plan, balance));
            return AdminJson.user(u);
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "Show a user with its keys (GET /admin/v1/users/{id}).")
    static final class Show extends AccountCommand {
        @Parameters(paramLabel = "USER_ID")
        String id;

        @Override
        JsonNode answer(Accounts a) {
            return AdminJson.userDetails(a.admin().getUser(id));
        }
    }

    @Command(name = "credit", mixinStandardHelpOptions = true, description = "Add credit to a user (POST /admin/v1/users/{id}/credits).")
    static final class Credit extends AccountCommand {
        @Parameters(paramLabel = "USER_ID")
        String id;
        @Option(names = "--amount-usd", required = true)
        String amount;
        @Option(names = "--note")
        Optional<String> note = Optional.empty();
        @Option(names = "--idempotency-key", description = "A repeat with the same key credits once.")
        Optional<String> idempotencyKey = Optional.empty();

        @Override
        JsonNode answer(Accounts a) {
            return AdminJson.credit(a.admin().addCredits(a.admin().userIdOf(id),
                    new AdminService.AddCredits(Optional.of(amount), note, idempotencyKey)));
        }
    }

    @Command(name = "plan", mixinStandardHelpOptions = true,
            description = "Put a user on a plan, or back on payg (PUT /admin/v1/users/{id}/plan).")
    static final class SetPlan extends AccountCommand {
        @Parameters(paramLabel = "USER", description = "User id or name.")
        String id;
        @Option(names = "--plan", required = true, description = "A plan of the config's plans:, or payg.")
        String plan;
        @Option(names = "--expires-at", description = "ISO-8601 instant, e.g. 2027-01-01T00:00:00Z. Default: never.")
        Optional<String> expiresAt = Optional.empty();

        @Override
        JsonNode answer(Accounts a) {
            GatewayConfig config = cli().loadConfig();
            List<String> plans = config.catalog().plans().all().stream().map(Plan::id).toList();
            return AdminJson.user(a.admin().setPlan(a.admin().userIdOf(id),
                    new AdminService.SetPlan(Optional.of(plan), expiresAt), plans));
        }
    }

    @Command(name = "ledger", mixinStandardHelpOptions = true,
            description = "A user's balance movements, newest first (GET /admin/v1/users/{id}/ledger).")
    static final class Ledger extends AccountCommand {
        @Parameters(paramLabel = "USER", description = "User id or name.")
        String id;
        @Option(names = "--limit", description = "Entries, 1 to 1000. Default: 100.")
        int limit = 100;

        @Override
        JsonNode answer(Accounts a) {
            return AdminJson.ledger(a.admin().ledger(a.admin().userIdOf(id), limit));
        }
    }
}
