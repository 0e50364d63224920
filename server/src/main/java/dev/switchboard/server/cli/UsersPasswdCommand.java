package dev.switchboard.server.cli;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.switchboard.engine.session.SessionPolicy;
import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code switchboard users passwd USER}: sets a user's dashboard password (twin of
 * {@code PUT /admin/v1/users/{id}/password}) and ends all the user's sessions. The password is read from the
 * terminal (asked twice) or, with {@code --password-stdin}, from the first line of standard input; never from
 * the command line, where other users of the machine could read it.
 */
@Command(name = "passwd", mixinStandardHelpOptions = true, description = "Set a user's dashboard password; ends the user's sessions.")
final class UsersPasswdCommand implements Callable<Integer> {
    @ParentCommand
    UsersCommand users;
    @Parameters(paramLabel = "USER", description = "User id or name.")
    String user;
    @Option(names = "--password-stdin", description = "Read the password from the first line of standard input.")
    boolean fromStdin;

    @Override
    public Integer call() throws IOException {
        String password;
        if (fromStdin) {
            String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            if (line == null || line.isEmpty()) {
                System.err.println("error: no password on standard input");
                return 1;
            }
            password = line;
        } else {
            Console console = System.console();
            if (console == null) {
                System.err.println("error: no terminal to ask for the password; use --password-stdin");
                return 1;
            }
            char[] first = console.readPassword("New password: ");
            char[] second = console.readPassword("Repeat it: ");
            if (first == null || second == null || !Arrays.equals(first, second)) {
                System.err.println("error: the passwords differ");
                return 1;
            }
            password = new String(first);
        }
        return AccountCommand.run(users.cli, a -> {
            String id = a.admin().userIdOf(user);
            int ended = a.sessions(SessionPolicy.DEFAULT).setPassword(id, password);
            return TextNode.valueOf("password set for " + id + "; " + ended + " session(s) ended");
        });
    }
}
