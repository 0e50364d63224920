package dev.switchboard.server.cli;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.switchboard.engine.session.DashboardRole;
import dev.switchboard.engine.session.SessionPolicy;
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
        return AccountCommand.run(users.cli, a -> {
            String id = a.admin().userIdOf(user);
            a.sessions(SessionPolicy.DEFAULT).setRole(id, r);
            return TextNode.valueOf(id + " is now " + r.wire());
        });
    }
}
