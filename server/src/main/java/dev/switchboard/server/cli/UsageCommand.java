package dev.switchboard.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.engine.account.AccountException;
import dev.switchboard.model.GatewayException;
import dev.switchboard.server.Accounts;
import dev.switchboard.server.admin.UsageAdminApi;
import dev.switchboard.server.admin.UsageFilters;
import dev.switchboard.store.JdbcBalanceStore;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code switchboard usage ...}: the CLI twin of {@code GET /admin/v1/usage}, on the configured database. */
@Command(name = "usage", mixinStandardHelpOptions = true,
        description = "Usage records and totals of every user (GET /admin/v1/usage); works without a server.")
final class UsageCommand extends AccountCommand {
    @Option(names = "--user", description = "Only this user (id or name).")
    Optional<String> user = Optional.empty();
    @Option(names = "--key", description = "Only this key id.")
    Optional<String> key = Optional.empty();
    @Option(names = "--model", description = "Only this answering model.")
    Optional<String> model = Optional.empty();
    @Option(names = "--from", description = "From this instant or UTC date (inclusive).")
    Optional<String> from = Optional.empty();
    @Option(names = "--to", description = "To this instant (exclusive) or UTC date (inclusive).")
    Optional<String> to = Optional.empty();
    @Option(names = "--group-by", description = "day, model or key.")
    Optional<String> groupBy = Optional.empty();
    @Option(names = "--page", description = "Zero-based page. Default: 0.")
    Optional<String> page = Optional.empty();
    @Option(names = "--limit", description = "Records per page, 1 to 1000. Default: 100.")
    Optional<String> limit = Optional.empty();

    @Override
    JsonNode answer(Accounts a) {
        Map<String, Optional<String>> params = new HashMap<>();
        params.put("model", model);
        params.put("from", from);
        params.put("to", to);
        params.put("group_by", groupBy);
        params.put("page", page);
        params.put("limit", limit);
        try {
            Optional<String> userId = user.map(u -> a.admin().userIdOf(u));
            var q = UsageFilters.query(n -> params.getOrDefault(n, Optional.empty()), userId, key);
            return UsageAdminApi.view(new JdbcBalanceStore(a.database()), q,
                    UsageFilters.groupBy(n -> params.getOrDefault(n, Optional.empty())));
        } catch (GatewayException e) {
            throw AccountException.invalid(e.error().param().orElse("usage"), e.error().message());
        }
    }
}
