package dev.switchboard.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.engine.account.AccountException;
import dev.switchboard.server.Accounts;
import dev.switchboard.server.StartupException;
import dev.switchboard.server.config.GatewayConfig;
import dev.switchboard.store.StoreException;
import java.time.Clock;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A CLI twin of one admin API operation, run on the accounts of the configured database (no server needed): a
 * subclass says what the operation answers; this class opens the database, prints the JSON answer (a JSON string
 * bare, for scripts) on standard output with exit status 0, or the refusal the way the admin API words it on
 * standard error with exit status 1. A database that cannot be opened is a {@link StartupException} (exit 4).
 *
 * <p>The database must already exist unless {@link #mayCreate()} says otherwise: a command that reads or changes
 * what is there treats a missing database as a wrong path, not as an empty answer.
 */
abstract class AccountCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** The operation's answer; an {@link AccountException} is its refusal. */
    abstract JsonNode answer(Accounts accounts);

    /** Whether this command may create the database; only {@code users create} may. */
    boolean mayCreate() {
        return false;
    }

    /** The {@code switchboard} command this one runs under (its config and output streams). */
    final Cli cli() {
        return (Cli) spec.root().userObject();
    }

    @Override
    public final Integer call() {
        return run(cli(), mayCreate(), this::answer);
    }

    /** Runs {@code op} on the accounts of {@code cli}'s configured database, which must exist; prints as above. */
    static int run(Cli cli, Function<Accounts, JsonNode> op) {
        return run(cli, false, op);
    }

    private static int run(Cli cli, boolean mayCreate, Function<Accounts, JsonNode> op) {
        cli.quietLogs();
        GatewayConfig config = cli.loadConfig();
        Accounts accounts;
        try {
            accounts = mayCreate
                    ? new Accounts(config.database(), config.adminKey(), Clock.systemUTC())
                    : Accounts.existing(config.database(), config.adminKey(), Clock.systemUTC());
        } catch (StoreException | IllegalArgumentException e) {
            throw new StartupException(StartupException.DATABASE, e.getMessage(), e);
        }
        try (accounts) {
            JsonNode answer = op.apply(accounts);
            cli.out().println(answer.isTextual() ? answer.textValue() : answer.toPrettyString());
            cli.out().flush();
            return 0;
        } catch (AccountException e) {
            cli.err().println("error: " + e.getMessage());
            cli.err().flush();
            return 1;
        }
    }
}
