package dev.switchboard.server.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.engine.account.AdminService;
import dev.switchboard.engine.account.KeyScope;
import dev.switchboard.engine.account.Usd;
import dev.switchboard.engine.account.User;
import dev.switchboard.engine.billing.Balance;
import dev.switchboard.engine.billing.BalanceStore;
import dev.switchboard.engine.billing.UsageQuery;
import dev.switchboard.engine.billing.UsageTotal;
import dev.switchboard.engine.pipeline.Caller;
import dev.switchboard.model.GatewayError;
import dev.switchboard.server.admin.UsageFilters;
import dev.switchboard.server.admin.UsageJson;
import dev.switchboard.server.http.Exchange;
import dev.switchboard.wire.Json;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * The caller's own account, read with its API key (as OpenRouter users expect), never anyone else's:
 * <ul>
 *   <li>{@code GET /v1/credits}: balance, what open requests hold of it and what is left, plan and its expiry,
 *       spend (what the balance paid) and cost at list prices today and this month (UTC);</li>
 *   <li>{@code GET /v1/generation?id=<x-request-id>}: one billed request: models, provider, tokens, cost,
 *       provenance; 404 for an unknown id or another user's request;</li>
 *   <li>{@code GET /v1/usage}: the caller's usage records (filters and paging of {@link UsageFilters}), daily totals
 *       and the total.</li>
 * </ul>
 * Keys scoped to endpoint groups need {@value KeyScope#USAGE} among them.
 */
public final class AccountApi {
    private final Authenticator auth;
    private final AdminService accounts;
    private final BalanceStore store;
    private final Clock clock;

    public AccountApi(Authenticator auth, AdminService accounts, BalanceStore store, Clock clock) {
        this.auth = auth;
        this.accounts = accounts;
        this.store = store;
        this.clock = clock;
    }

    public void credits(Exchange ex) {
        Caller caller = auth.authenticate(ex, Credentials.BEARER_OR_X_API_KEY, KeyScope.USAGE);
        User user = accounts.getUser(caller.userId()).user();
        Balance balance = store.balance(caller.userId()).orElse(new Balance(user.balanceNanos(), 0));
        Instant now = clock.instant();
        LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
        UsageTotal day = store.total(UsageQuery.ofUser(caller.userId(), today.atStartOfDay(ZoneOffset.UTC).toInstant(),
                now.plusSeconds(1)));
        UsageTotal month = store.total(UsageQuery.ofUser(caller.userId(),
                today.withDayOfMonth(1).atStartOfDay(ZoneOffset.UTC).toInstant(), now.plusSeconds(1)));
        ObjectNode data = Json.object();
        data.put("user_id", caller.userId());
        data.put("balance_usd", Usd.format(balance.balanceNanos()));
        data.put("held_usd", Usd.format(balance.heldNanos()));
        data.put("available_usd", Usd.format(balance.availableNanos()));
        data.put("plan", caller.plan());
        if (!caller.plan().equals(User.PAYG)) {
            user.planExpiresAt().ifPresentOrElse(t -> data.put("plan_expires_at", t.toString()), () -> data.putNull("plan_expires_at"));
        } else {
            data.putNull("plan_expires_at");
        }
        data.put("spend_today_usd", Usd.format(day.chargedNanos()));
        data.put("spend_month_usd", Usd.format(month.chargedNanos()));
        data.put("cost_today_usd", Usd.format(day.costNanos()));
        data.put("cost_month_usd", Usd.format(month.costNanos()));
        data.put("requests_today", day.requests());
        data.put("requests_month", month.requests());
        ObjectNode body = Json.object();
        body.set("data", data);
        ex.respond(200, "application/json", Json.writeBytes(body));
    }

    public void generation(Exchange ex) {
        Caller caller = auth.authenticate(ex, Credentials.BEARER_OR_X_API_KEY, KeyScope.USAGE);
        String id = UsageFilters.text(ex, "id").orElseThrow(() -> GatewayError.invalid("id",
                "id: required, the x-request-id of the request").toException());
        var record = store.usage(id).filter(r -> r.userId().equals(caller.userId()))
                .orElseThrow(() -> GatewayError.notFound("No billed request with id " + id + " for this account.").toException());
        ObjectNode body = Json.object();
        body.set("data", UsageJson.record(record));
        ex.respond(200, "application/json", Json.writeBytes(body));
    }

    public void usage(Exchange ex) {
        Caller caller = auth.authenticate(ex, Credentials.BEARER_OR_X_API_KEY, KeyScope.USAGE);
        UsageQuery q = UsageFilters.query(ex, Optional.of(caller.userId()), UsageFilters.text(ex, "key"));
        ObjectNode body = Json.object();
        body.set("data", UsageJson.records(store.usage(q)));
        body.set("daily", UsageJson.totals(store.totals(q, UsageTotal.GroupBy.DAY)));
        body.set("total", UsageJson.total(store.total(q)));
        body.put("page", q.offset() / q.limit());
        body.put("limit", q.limit());
        ex.respond(200, "application/json", Json.writeBytes(body));
    }
}
