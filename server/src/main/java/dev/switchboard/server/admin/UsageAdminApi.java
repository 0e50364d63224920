package dev.switchboard.server.admin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.engine.billing.BalanceStore;
import dev.switchboard.engine.billing.UsageQuery;
import dev.switchboard.server.http.Exchange;
import dev.switchboard.wire.Json;

/**
 * {@code GET /admin/v1/usage} (admin key): usage records of every user, filtered by {@code user}, {@code key},
 * {@code model}, {@code from} and {@code to} ({@link UsageFilters}), newest first and paged, with the totals
 * of everything matching and, with {@code group_by=day|model|key}, per-group totals:
 * {@code {data: [...], total: {...}, groups: [...], page, limit}}.
 */
public final class UsageAdminApi {
    private final BalanceStore store;

    public UsageAdminApi(BalanceStore store) {
        this.store = store;
    }

    public void usage(Exchange ex) {
        UsageQuery q = UsageFilters.query(ex, UsageFilters.text(ex, "user"), UsageFilters.text(ex, "key"));
        ex.respondJson(200, view(store, q, UsageFilters.groupBy(ex)));
    }

    /** The answer of the usage view for {@code q}; shared with the CLI twin. */
    public static ObjectNode view(BalanceStore store, UsageQuery q,
                                  java.util.Optional<dev.switchboard.engine.billing.UsageTotal.GroupBy> groupBy) {
        ObjectNode o = Json.object();
        o.set("data", UsageJson.records(store.usage(q)));
        o.set("total", UsageJson.total(store.total(q)));
        groupBy.ifPresent(g -> {
            o.put("group_by", g.name().toLowerCase(java.util.Locale.ROOT));
            o.set("groups", UsageJson.totals(store.totals(q, g)));
        });
        o.put("page", q.offset() / q.limit());
        o.put("limit", q.limit());
        return o;
    }
}
