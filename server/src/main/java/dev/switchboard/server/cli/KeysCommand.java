package dev.switchboard.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.switchboard.engine.account.AccountException;
import dev.switchboard.engine.account.AdminService;
import dev.switchboard.engine.account.Change;
import dev.switchboard.engine.account.IssuedKey;
import dev.switchboard.server.Accounts;
import dev.switchboard.server.admin.AdminJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code switchboard keys ...}: the CLI twins of the admin API's key operations. */
@Command(name = "keys", mixinStandardHelpOptions = true,
        description = "List, issue and revoke API keys (works on the configured database, no server needed).",
        subcommands = {KeysCommand.ListKeys.class, KeysCommand.Create.class, KeysCommand.Update.class,
                KeysCommand.Revoke.class})
final class KeysCommand {
    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "List a user's keys, revoked ones included; prefixes only (GET /admin/v1/users/{id}/keys).")
    static final class ListKeys extends AccountCommand {
        @Parameters(paramLabel = "USER", description = "User id or name.")
        String user;

        @Override
        JsonNode answer(Accounts a) {
            return AdminJson.keys(a.admin().keysOf(a.admin().userIdOf(user)));
        }
    }

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = "Issue a key for a user (POST /admin/v1/users/{id}/keys); the key is printed once.")
    static final class Create extends AccountCommand {
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
        @Option(names = "--rpm", description = "Requests per minute (a sliding window).")
        Optional<Long> rpm = Optional.empty();
        @Option(names = "--tpm", description = "Tokens (input + output) per minute.")
        Optional<Long> tpm = Optional.empty();
        @Option(names = "--daily-tokens", description = "Tokens (input + output) per UTC day.")
        Optional<Long> dailyTokens = Optional.empty();
        @Option(names = "--max-parallel", description = "Requests in flight at once.")
        Optional<Long> maxParallel = Optional.empty();
        @Option(names = "--budget-usd", description = "Spend budget in USD, e.g. 5 or 0.25.")
        Optional<String> budgetUsd = Optional.empty();
        @Option(names = "--budget-period", description = "daily, weekly, monthly or total (default total).")
        Optional<String> budgetPeriod = Optional.empty();
        @Option(names = "--expires-at", description = "ISO-8601 instant, e.g. 2027-01-01T00:00:00Z.")
        Optional<String> expiresAt = Optional.empty();

        @Override
        JsonNode answer(Accounts a) {
            AdminService.LimitsInput limits = new AdminService.LimitsInput(whole(rpm), whole(tpm), whole(dailyTokens),
                    whole(maxParallel), budgetUsd, budgetPeriod);
            IssuedKey issued = a.admin().createKey(a.admin().userIdOf(user), new AdminService.CreateKey(name, models, endpoints,
                    limits, expiresAt));
            if (keyOnly) {
                return TextNode.valueOf(issued.secret());
            }
            return AdminJson.issuedKey(issued);
        }
    }

    private static OptionalLong whole(Optional<Long> v) {
        return v.map(OptionalLong::of).orElse(OptionalLong.empty());
    }

    /** The word that removes a limit or an expiry in {@code keys update}. */
    static final String NONE = "none";

    @Command(name = "update", mixinStandardHelpOptions = true,
            description = "Change a key's name, scope, limits or expiry (PATCH /admin/v1/keys/{id}); "
                    + "options not given are kept, and 'none' removes a limit, the budget or the expiry.")
    static final class Update extends AccountCommand {
        @Parameters(paramLabel = "KEY_ID")
        String keyId;
        @Option(names = "--name")
        Optional<String> name = Optional.empty();
        @Option(names = "--model", description = "Allowed model (repeatable; replaces the list).")
        List<String> models = new ArrayList<>();
        @Option(names = "--all-models", description = "Allow every model.")
        boolean allModels;
        @Option(names = "--endpoint", description = "Allowed endpoint group (repeatable; replaces the list).")
        List<String> endpoints = new ArrayList<>();
        @Option(names = "--all-endpoints", description = "Allow every endpoint group.")
        boolean allEndpoints;
        @Option(names = "--rpm", paramLabel = "N|none")
        Optional<String> rpm = Optional.empty();
        @Option(names = "--tpm", paramLabel = "N|none")
        Optional<String> tpm = Optional.empty();
        @Option(names = "--daily-tokens", paramLabel = "N|none")
        Optional<String> dailyTokens = Optional.empty();
        @Option(names = "--max-parallel", paramLabel = "N|none")
        Optional<String> maxParallel = Optional.empty();
        @Option(names = "--budget-usd", paramLabel = "USD|none")
        Optional<String> budgetUsd = Optional.empty();
        @Option(names = "--budget-period", paramLabel = "daily|weekly|monthly|total")
        Optional<String> budgetPeriod = Optional.empty();
        @Option(names = "--expires-at", paramLabel = "INSTANT|none")
        Optional<String> expiresAt = Optional.empty();

        @Override
        JsonNode answer(Accounts a) {
            AdminService.UpdateKey update = new AdminService.UpdateKey(text(name), list(models, allModels),
                    list(endpoints, allEndpoints), count("rpm", rpm), count("tpm", tpm),
                    count("daily_tokens", dailyTokens), count("max_parallel", maxParallel), text(budgetUsd),
                    text(budgetPeriod), text(expiresAt));
            return AdminJson.key(a.admin().updateKey(keyId, update));
        }

        private static Change<String> text(Optional<String> v) {
            return v.<Change<String>>map(t -> t.strip().equalsIgnoreCase(NONE) ? new Change.Clear<>() : new Change.Set<>(t))
                    .orElse(new Change.Keep<>());
        }

        private static Change<List<String>> list(List<String> values, boolean all) {
            return all ? new Change.Clear<>() : values.isEmpty() ? new Change.Keep<>() : new Change.Set<>(values);
        }

        private static Change<Long> count(String field, Optional<String> v) {
            return text(v).applyTo(new Change.Keep<>(), t -> {
                try {
                    return new Change.Set<>(Long.parseLong(t.strip()));
                } catch (NumberFormatException e) {
                    throw AccountException.invalid(field, field + ": expected a whole number or 'none', got \"" + t + "\"");
                }
            }, new Change.Clear<>());
        }
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true, description = "Revoke a key at once (DELETE /admin/v1/keys/{id}).")
    static final class Revoke extends AccountCommand {
        @Parameters(paramLabel = "KEY_ID")
        String keyId;

        @Override
        JsonNode answer(Accounts a) {
            a.admin().revokeKey(keyId);
            return AdminJson.revoked(keyId);
        }
    }
}
