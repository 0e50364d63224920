package dev.switchboard.server.cli;

import dev.switchboard.engine.account.AccountException;
import dev.switchboard.engine.session.DashboardRole;
import dev.switchboard.engine.session.SessionPolicy;
import dev.switchboard.server.Accounts;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code switchboard users role USER user|admin}: twin of {@code PUT /admin/v1/users/{id}/role}. */
@Command(name = "role", mixinStandardHelpOptions = true, description = "Set a user's dashboard role (user or admin).")
final class UsersRoleCommand implements Callable<Integer> {
    @ParentCommand
    UsersCommand users;
    @Parameters(index = "0", paramLabel = "USER", description = "User id or name.")
    String user;
    @Parameters(index = "1", paramLabel = "ROLE", description = "user or admin.")
    String role;

    @Override
    public Integer call() {
        DashboardRole r = DashboardRole.parse(role).orElse(null);
        if (r == null) {
            System.err.println("error: ROLE must be user or admin, got '" + role + "'");
            return 1;
        }
        try (Accounts accounts = UsersCommand.open(users.cli)) {
            String id = accounts.userIdOrName(user).orElseThrow(() -> AccountException.notFound("no user with id or name " + user));
            accounts.sessions(SessionPolicy.DEFAULT).setRole(id, r);
            System.out.println(id + " is now " + r.wire());
            return 0;
        } catch (AccountException e) {
            System.err.println("error: " + e.getMessage());
            return 1;
        }
    }
}
