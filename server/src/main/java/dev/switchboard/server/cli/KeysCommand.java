package dev.switchboard.server.cli;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.switchboard.engine.account.AdminService;
import dev.switchboard.engine.account.IssuedKey;
import dev.switchboard.server.admin.AdminJson;
import dev.switchboard.server.cli.UsersCommand.Access;
import dev.switchboard.wire.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code switchboard keys ...}: the CLI twins of the admin API's key operations. */
@Command(name = "keys", mixinStandardHelpOptions = true,
        description = "List, issue and revoke API keys (works on the configured database, no server needed).",
        subcommands = {KeysCommand.ListKeys.class, KeysCommand.Create.class, KeysCommand.Revoke.class})
final class KeysCommand {
    @ParentCommand
    Cli cli;

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "List a user's keys, revoked ones included; prefixes only (GET /admin/v1/users/{id}/keys).")
    static final class ListKeys implements Callable<Integer> {
        @ParentCommand
        KeysCommand keys;
        @Parameters(paramLabel = "USER", description = "User id or name.")
        String user;

        @Override
        public Integer call() {
            return UsersCommand.run(keys.cli, Access.EXISTING, a -> AdminJson.keys(a.admin().keysOf(a.admin().userIdOf(user))));
        }
    }

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = "Issue a key for a user (POST /admin/v1/users/{id}/keys); the key is printed once.")
    static final class Create implements Callable<Integer> {
        @ParentCommand
        KeysCommand keys;
        @Parameters(paramLabel = "USER", description = "User id or name.")
        String user;
        @Option(names = "--key-only", description = "Print only the new key (for scripts: KEY=$(switchboard keys create demo --key-only)).")
        boolean keyOnly;
        @Option(names = "--name")
        Optional<String> name = Optional.empty();
        @Option(names = "--model", description = "Allowed model (repeatable; default: all).")
        List<String> models = new ArrayList<>();
        @Option(names = "--endpoint", description = "Allowed endpoint group (repeatable; default: all).")
        List<String> endpoints = new ArrayList<>();
        @Option(names = "--rpm")
        Optional<Long> rpm = Optional.empty();
        @Option(names = "--daily-tokens")
        Optional<Long> dailyTokens = Optional.empty();
        @Option(names = "--expires-at", description = "ISO-8601 instant, e.g. 2027-01-01T00:00:00Z.")
        Optional<String> expiresAt = Optional.empty();

        @Override
        public Integer call() {
            return UsersCommand.run(keys.cli, Access.EXISTING, a -> {
                IssuedKey issued = a.admin().createKey(a.admin().userIdOf(user), new AdminService.CreateKey(name, models, endpoints,
                        rpm.map(OptionalLong::of).orElse(OptionalLong.empty()),
                        dailyTokens.map(OptionalLong::of).orElse(OptionalLong.empty()), expiresAt));
                if (keyOnly) {
                    return TextNode.valueOf(issued.secret());
                }
                var o = AdminJson.key(issued.key());
                o.put("key", issued.secret());
                return o;
            });
        }
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true, description = "Revoke a key at once (DELETE /admin/v1/keys/{id}).")
    static final class Revoke implements Callable<Integer> {
        @ParentCommand
        KeysCommand keys;
        @Parameters(paramLabel = "KEY_ID")
        String keyId;

        @Override
        public Integer call() {
            return UsersCommand.run(keys.cli, Access.EXISTING, a -> {
                a.admin().revokeKey(keyId);
                var o = Json.object();
                o.put("id", keyId);
                o.put("revoked", true);
                return o;
            });
        }
    }
}
