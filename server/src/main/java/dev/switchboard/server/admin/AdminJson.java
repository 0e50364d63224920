package dev.switchboard.server.admin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.engine.account.AdminService;
import dev.switchboard.engine.account.ApiKey;
import dev.switchboard.engine.account.IssuedKey;
import dev.switchboard.engine.account.KeyLimits;
import dev.switchboard.engine.account.LedgerEntry;
import dev.switchboard.engine.account.Usd;
import dev.switchboard.engine.account.User;
import dev.switchboard.wire.Json;
import java.util.List;

/** The JSON shapes of users, keys and ledger entries, shared by the admin API and its CLI twins. Never holds a secret. */
public final class AdminJson {
    private AdminJson() {
    }

    public static ObjectNode user(User u) {
        ObjectNode o = Json.object();
        o.put("id", u.id());
        o.put("name", u.name());
        u.email().ifPresent(e -> o.put("email", e));
        o.put("plan", u.plan());
        u.planExpiresAt().ifPresent(t -> o.put("plan_expires_at", t.toString()));
        o.put("balance_usd", Usd.format(u.balanceNanos()));
        o.put("created_at", u.createdAt().toString());
        return o;
    }

    public static ObjectNode key(ApiKey k) {
        ObjectNode o = Json.object();
        o.put("id", k.id());
        o.put("user_id", k.userId());
        o.put("name", k.name());
        o.put("prefix", k.prefix());
        ArrayNode models = o.putArray("models");
        k.scope().models().forEach(models::add);
        ArrayNode endpoints = o.putArray("endpoints");
        k.scope().endpoints().forEach(endpoints::add);
        limits(o, k.limits());
        k.expiresAt().ifPresent(t -> o.put("expires_at", t.toString()));
        k.revokedAt().ifPresent(t -> o.put("revoked_at", t.toString()));
        o.put("created_at", k.createdAt().toString());
        return o;
    }

    /** A key with its secret, as issuing answers it: the only time the secret is shown. */
    public static ObjectNode issuedKey(IssuedKey issued) {
        ObjectNode o = key(issued.key());
        o.put("key", issued.secret());
        return o;
    }

    /** {@code {id, revoked: true}}, as revoking a key answers. */
    public static ObjectNode revoked(String keyId) {
        ObjectNode o = Json.object();
        o.put("id", keyId);
        o.put("revoked", true);
        return o;
    }

    /** A user with every key and the recent ledger, as {@code GET /admin/v1/users/{id}} answers. */
    public static ObjectNode userDetails(AdminService.UserDetails d) {
        ObjectNode o = user(d.user());
        ArrayNode keys = o.putArray("keys");
        d.keys().forEach(k -> keys.add(key(k)));
        ArrayNode ledger = o.putArray("ledger");
        d.recentLedger().forEach(e -> ledger.add(ledger(e)));
        return o;
    }

    /** A credit's ledger entry with the balance it left, as {@code POST /admin/v1/users/{id}/credits} answers. */
    public static ObjectNode credit(LedgerEntry e) {
        ObjectNode o = ledger(e);
        o.put("balance_usd", Usd.format(e.balanceAfterNanos()));
        return o;
    }

    /**
     * A key's limits, each always present ({@code null}: no such limit), so a reader sees every limit a key can
     * have: {@code rpm, tpm, daily_tokens, max_parallel, budget_usd, budget_period}.
     */
    private static void limits(ObjectNode o, KeyLimits l) {
        putCount(o, "rpm", l.rpm());
        putCount(o, "tpm", l.tpm());
        putCount(o, "daily_tokens", l.dailyTokens());
        putCount(o, "max_parallel", l.maxParallel());
        if (l.budget().isPresent()) {
            o.put("budget_usd", Usd.format(l.budget().get().nanos()));
            o.put("budget_period", l.budget().get().period().wireName());
        } else {
            o.putNull("budget_usd");
            o.putNull("budget_period");
        }
    }

    private static void putCount(ObjectNode o, String field, java.util.OptionalLong v) {
        if (v.isPresent()) {
            o.put(field, v.getAsLong());
        } else {
            o.putNull(field);
        }
    }

    /** A page of users as {@code GET /admin/v1/users} answers it. */
    public static ObjectNode userPage(AdminService.UserPage page) {
        ObjectNode o = Json.object();
        ArrayNode users = o.putArray("users");
        page.users().forEach(u -> users.add(user(u)));
        o.put("total", page.total());
        o.put("page", page.page());
        o.put("limit", page.limit());
        return o;
    }

    /** {@code {keys: [...]}}, as {@code GET /admin/v1/users/{id}/keys} answers. */
    public static ObjectNode keys(List<ApiKey> keys) {
        ObjectNode o = Json.object();
        ArrayNode list = o.putArray("keys");
        keys.forEach(k -> list.add(key(k)));
        return o;
    }

    /** {@code {data: [...]}}, as {@code GET /admin/v1/users/{id}/ledger} answers. */
    public static ObjectNode ledger(List<LedgerEntry> entries) {
        ObjectNode o = Json.object();
        ArrayNode data = o.putArray("data");
        entries.forEach(e -> data.add(ledger(e)));
        return o;
    }

    public static ObjectNode ledger(LedgerEntry e) {
        ObjectNode o = Json.object();
        o.put("id", e.id());
        o.put("user_id", e.userId());
        o.put("kind", e.kind().name().toLowerCase(java.util.Locale.ROOT));
        o.put("amount_usd", Usd.format(e.amountNanos()));
        o.put("balance_after_usd", Usd.format(e.balanceAfterNanos()));
        e.requestId().ifPresent(r -> o.put("request_id", r));
        e.note().ifPresent(n -> o.put("note", n));
        o.put("created_at", e.createdAt().toString());
        return o;
    }

}
