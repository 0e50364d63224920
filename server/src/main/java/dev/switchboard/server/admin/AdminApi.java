package dev.switchboard.server.admin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.engine.account.AccountException;
import dev.switchboard.engine.account.AdminService;
import dev.switchboard.engine.account.ApiKey;
import dev.switchboard.engine.account.Change;
import dev.switchboard.engine.account.IssuedKey;
import dev.switchboard.engine.account.LedgerEntry;
import dev.switchboard.engine.account.User;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.GatewayException;
import dev.switchboard.server.http.Exchange;
import dev.switchboard.wire.Json;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The admin API (docs/admin.md): users, credits and keys. Who may call it is the routes' guard
 * ({@code auth/RouteGuards.admin}), checked by the edge before any of these handlers runs. Bodies are checked strictly:
 * an unknown field or a wrong type is a 400 naming the field, so a typo never silently creates the wrong
 * thing. Secrets appear in exactly one place: the {@code key} of a key-creation answer.
 */
public final class AdminApi {
    private final AdminService admin;
    private final java.util.Collection<String> plans;

    /** @param plans the configured plan ids, which users may be put on */
    public AdminApi(AdminService admin, java.util.Collection<String> plans) {
        this.admin = admin;
        this.plans = List.copyOf(plans);
    }

    public void createUser(Exchange ex) {
        JsonNode body = object(ex, Set.of("name", "email", "password", "plan", "balance_usd"));
        User user = call(() -> admin.createUser(new AdminService.CreateUser(text(body, "name"), text(body, "email"),
                text(body, "password"), text(body, "plan"), decimal(body, "balance_usd"))));
        ex.respondJson(201, AdminJson.user(user));
    }

    public void getUser(Exchange ex) {
        AdminService.UserDetails d = call(() -> admin.getUser(ex.pathParam("id")));
        ex.respondJson(200, AdminJson.userDetails(d));
    }

    /** {@code GET /admin/v1/users?page=&limit=}: {@code {users, total, page, limit}}, oldest first. */
    public void listUsers(Exchange ex) {
        int page = queryInt(ex, "page", 0);
        int limit = queryInt(ex, "limit", AdminService.DEFAULT_PAGE);
        ex.respondJson(200, AdminJson.userPage(call(() -> admin.listUsers(page, limit))));
    }

    /** {@code GET /admin/v1/users/{id}/keys}: {@code {keys: [...]}}, revoked ones included, oldest first. */
    public void listKeys(Exchange ex) {
        ex.respondJson(200, AdminJson.keys(call(() -> admin.keysOf(ex.pathParam("id")))));
    }

    /**
     * {@code POST /admin/v1/users/{id}/credits {amount_usd, note?, idempotency_key?}}: a repeat with the same
     * idempotency key credits once and answers the first credit's entry.
     */
    public void addCredits(Exchange ex) {
        JsonNode body = object(ex, Set.of("amount_usd", "note", "idempotency_key"));
        LedgerEntry e = call(() -> admin.addCredits(ex.pathParam("id"),
                new AdminService.AddCredits(decimal(body, "amount_usd"), text(body, "note"), text(body, "idempotency_key"))));
        ex.respondJson(200, AdminJson.credit(e));
    }

    /** {@code PUT /admin/v1/users/{id}/plan {plan, expires_at?}}: the user as now stored. */
    public void setPlan(Exchange ex) {
        JsonNode body = object(ex, Set.of("plan", "expires_at"));
        User user = call(() -> admin.setPlan(ex.pathParam("id"), new AdminService.SetPlan(text(body, "plan"),
                text(body, "expires_at")), plans));
        ex.respondJson(200, AdminJson.user(user));
    }

    /** {@code GET /admin/v1/users/{id}/ledger?limit=}: {@code {data: [...]}}, newest first. */
    public void ledger(Exchange ex) {
        int limit = queryInt(ex, "limit", 100);
        List<LedgerEntry> entries = call(() -> admin.ledger(ex.pathParam("id"), limit));
        ex.respondJson(200, AdminJson.ledger(entries));
    }

    /** The limit fields of a key, as the key routes take them. */
    private static final Set<String> LIMIT_FIELDS = Set.of("rpm", "tpm", "daily_tokens", "max_parallel", "budget_usd",
            "budget_period");

    public void createKey(Exchange ex) {
        issueKey(ex, ex.pathParam("id"));
    }

    /**
     * Issues a key for {@code userId} from a key-creation body and answers 201 with the key and its secret (the only
     * time it is shown); shared by the admin route and the dashboard's own {@code POST /v1/keys}.
     */
    public void issueKey(Exchange ex, String userId) {
        JsonNode body = object(ex, union(Set.of("name", "models", "endpoints", "expires_at"), LIMIT_FIELDS));
        AdminService.LimitsInput limits = new AdminService.LimitsInput(integer(body, "rpm"), integer(body, "tpm"),
                integer(body, "daily_tokens"), integer(body, "max_parallel"), decimal(body, "budget_usd"),
                text(body, "budget_period"));
        IssuedKey issued = call(() -> admin.createKey(userId, new AdminService.CreateKey(text(body, "name"),
                strings(body, "models"), strings(body, "endpoints"), limits, text(body, "expires_at"))));
        ex.header("cache-control", "no-store");
        ex.respondJson(201, AdminJson.issuedKey(issued));
    }

    /**
     * {@code PATCH /admin/v1/keys/{id}}: changes the fields the body names (name, scope, limits, expiry); a field
     * given as {@code null} is removed (no limit, no expiry, every model). Answers the key as it is now.
     */
    public void updateKey(Exchange ex) {
        JsonNode body = object(ex, union(Set.of("name", "models", "endpoints", "expires_at"), LIMIT_FIELDS));
        AdminService.UpdateKey update = new AdminService.UpdateKey(change(body, "name", AdminApi::text),
                change(body, "models", AdminApi::stringList), change(body, "endpoints", AdminApi::stringList),
                change(body, "rpm", AdminApi::wholeNumber), change(body, "tpm", AdminApi::wholeNumber),
                change(body, "daily_tokens", AdminApi::wholeNumber), change(body, "max_parallel", AdminApi::wholeNumber),
                change(body, "budget_usd", AdminApi::decimal), change(body, "budget_period", AdminApi::text),
                change(body, "expires_at", AdminApi::text));
        ApiKey key = call(() -> admin.updateKey(ex.pathParam("id"), update));
        ex.respondJson(200, AdminJson.key(key));
    }

    /** A field of a partial update: absent is kept, {@code null} is cleared, anything else read by {@code read}. */
    private static <T> Change<T> change(JsonNode body, String field,
                                        java.util.function.BiFunction<JsonNode, String, Optional<T>> read) {
        if (!body.has(field)) {
            return new Change.Keep<>();
        }
        if (body.get(field).isNull()) {
            return new Change.Clear<>();
        }
        return new Change.Set<>(read.apply(body, field).orElseThrow());
    }

    private static Optional<Long> wholeNumber(JsonNode body, String field) {
        return given(body, field).map(n -> {
            if (!n.isIntegralNumber() || !n.canConvertToLong()) {
                throw expected(field, "a whole number");
            }
            return n.asLong();
        });
    }

    private static Optional<List<String>> stringList(JsonNode body, String field) {
        return Optional.of(strings(body, field));
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new java.util.HashSet<>(a);
        all.addAll(b);
        return all;
    }

    public void revokeKey(Exchange ex) {
        call(() -> {
            admin.revokeKey(ex.pathParam("id"));
            return true;
        });
        ex.respondJson(200, AdminJson.revoked(ex.pathParam("id")));
    }

    /** Runs an account operation, mapping its refusals to 404 / 400 / 409 naming the field. */
    public static <T> T call(java.util.function.Supplier<T> op) {
        try {
            return op.get();
        } catch (AccountException e) {
            GatewayError err = switch (e.kind()) {
                case NOT_FOUND -> GatewayError.notFound(e.getMessage());
                case INVALID -> new GatewayError(400, "invalid_request_error", e.getMessage(), e.field(), false);
                case CONFLICT -> new GatewayError(409, "conflict", e.getMessage(), e.field(), false);
            };
            throw new GatewayException(err);
        }
    }

    private static JsonNode object(Exchange ex, Set<String> allowed) {
        byte[] raw = ex.body();
        JsonNode body = raw.length == 0 ? Json.object() : Json.parse(raw);
        if (!body.isObject()) {
            throw GatewayError.invalidRequest("The request body must be a JSON object.").toException();
        }
        for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!allowed.contains(f)) {
                throw GatewayError.invalid(f, "Unknown field '" + f + "'; expected one of " + new java.util.TreeSet<>(allowed) + ".")
                        .toException();
            }
        }
        return body;
    }

    static int queryInt(Exchange ex, String name, int absent) {
        Optional<String> raw = ex.query(name);
        if (raw.isEmpty()) {
            return absent;
        }
        try {
            return Integer.parseInt(raw.get().strip());
        } catch (NumberFormatException e) {
            throw expected(name, "a whole number");
        }
    }

    /** The value of {@code field}; empty when it is absent or {@code null}, which both mean "not given". */
    private static Optional<JsonNode> given(JsonNode body, String field) {
        return Optional.ofNullable(body.get(field)).filter(n -> !n.isNull());
    }

    /** The 400 naming {@code field}: "field: expected {@code what}". */
    private static GatewayException expected(String field, String what) {
        return GatewayError.invalid(field, field + ": expected " + what).toException();
    }

    private static Optional<String> text(JsonNode body, String field) {
        return given(body, field).map(n -> {
            if (!n.isTextual()) {
                throw expected(field, "a string");
            }
            return n.asText();
        });
    }

    private static Optional<String> decimal(JsonNode body, String field) {
        return given(body, field).map(n -> {
            if (n.isNumber()) {
                return n.decimalValue().toPlainString();
            }
            if (n.isTextual()) {
                return n.asText();
            }
            throw expected(field, "a decimal amount such as 25.50");
        });
    }

    private static OptionalLong integer(JsonNode body, String field) {
        return wholeNumber(body, field).map(OptionalLong::of).orElse(OptionalLong.empty());
    }

    private static List<String> strings(JsonNode body, String field) {
        return given(body, field).map(n -> {
            if (!n.isArray()) {
                throw expected(field, "an array of strings");
            }
            List<String> out = new ArrayList<>();
            for (JsonNode e : n) {
                if (!e.isTextual()) {
                    throw expected(field, "an array of strings");
                }
                out.add(e.asText());
            }
            return out;
        }).orElse(List.of());
    }
}
