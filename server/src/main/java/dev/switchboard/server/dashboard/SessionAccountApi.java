package dev.switchboard.server.dashboard;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.engine.account.AdminService;
import dev.switchboard.engine.account.ApiKey;
import dev.switchboard.engine.defaults.SavedDefaultsService;
import dev.switchboard.engine.session.Sessions.SignedIn;
import dev.switchboard.model.GatewayError;
import dev.switchboard.server.admin.AdminApi;
import dev.switchboard.server.admin.AdminJson;
import dev.switchboard.server.admin.DefaultsAdminApi;
import dev.switchboard.server.auth.SessionAuth;
import dev.switchboard.server.http.Exchange;
import dev.switchboard.wire.Json;
import dev.switchboard.engine.account.IssuedKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The signed-in user's own keys and saved defaults, for the dashboard: dashboard session only (an API key can
 * never manage keys), with the session's CSRF token on every write.
 * <ul>
 *   <li>{@code GET /v1/keys}: {@code {keys: [...]}}, the admin API's key shape (prefixes only), revoked ones
 *       included, oldest first.
 *   <li>{@code POST /v1/keys}: the admin API's key-creation body; 201 with the key and its secret, shown only in
 *       this answer.
 *   <li>{@code POST /v1/keys/playground}: a short-lived key for the dashboard's playground ({@link #playgroundKey}).
 *   <li>{@code DELETE /v1/keys/{id}}: revokes one of the caller's keys ({@code {id, revoked: true}}); another
 *       user's key is a 404, as an unknown one.
 *   <li>{@code GET /v1/defaults}: {@code {defaults: [{user_id, model, defaults, updated_at}]}} by model id;
 *       {@code GET|PUT|DELETE /v1/defaults/{model}}: as the admin API's routes for the caller.
 * </ul>
 */
public final class SessionAccountApi {
    /** The name of the keys the playground runs under. */
    public static final String PLAYGROUND_KEY = "playground";
    /** How long a playground key lives. */
    static final Duration PLAYGROUND_LIFETIME = Duration.ofHours(1);

    private final SessionAuth auth;
    private final AdminApi admin;
    private final AdminService accounts;
    private final SavedDefaultsService defaults;
    private final Clock clock;

    public SessionAccountApi(SessionAuth auth, AdminApi admin, AdminService accounts, SavedDefaultsService defaults, Clock clock) {
        this.auth = auth;
        this.admin = admin;
        this.accounts = accounts;
        this.defaults = defaults;
        this.clock = clock;
    }

    public void keys(Exchange ex) {
        SignedIn who = auth.require(ex);
        List<ApiKey> keys = AdminApi.call(() -> accounts.keysOf(who.user().id()));
        respond(ex, 200, AdminJson.keys(keys));
    }

    public void createKey(Exchange ex) {
        SignedIn who = auth.require(ex);
        admin.issueKey(ex, who.user().id());
    }

    public void revokeKey(Exchange ex) {
        SignedIn who = auth.require(ex);
        String id = ex.pathParam("id");
        boolean own = AdminApi.call(() -> accounts.keysOf(who.user().id())).stream().anyMatch(k -> k.id().equals(id));
        if (!own) {
            throw GatewayError.notFound("You have no key with id '" + id + "'.").toException();
        }
        AdminApi.call(() -> {
            accounts.revokeKey(id);
            return true;
        });
        respond(ex, 200, AdminJson.revoked(id));
    }

    /**
     * {@code POST /v1/keys/playground}: a key for the dashboard's playground, which calls the chat endpoints as any
     * client does (they take API keys only): named {@value #PLAYGROUND_KEY}, unrestricted, valid for
     * {@link #PLAYGROUND_LIFETIME}. The user's earlier playground keys are revoked first, so at most one is live.
     * 201 with the key and its secret, which the page keeps in memory and never shows.
     */
    public void playgroundKey(Exchange ex) {
        SignedIn who = auth.require(ex);
        String userId = who.user().id();
        Instant now = clock.instant();
        for (ApiKey k : AdminApi.call(() -> accounts.keysOf(userId))) {
            if (k.name().equals(PLAYGROUND_KEY) && !k.revoked() && !k.expiredAt(now)) {
                AdminApi.call(() -> {
                    accounts.revokeKey(k.id());
                    return true;
                });
            }
        }
        IssuedKey issued = AdminApi.call(() -> accounts.createKey(userId, new AdminService.CreateKey(Optional.of(PLAYGROUND_KEY),
                List.of(), List.of(), AdminService.LimitsInput.NONE,
                Optional.of(now.plus(PLAYGROUND_LIFETIME).truncatedTo(ChronoUnit.SECONDS).toString()))));
        respond(ex, 201, AdminJson.issuedKey(issued));
    }

    public void listDefaults(Exchange ex) {
        SignedIn who = auth.require(ex);
        ObjectNode o = Json.object();
        ArrayNode list = o.putArray("defaults");
        defaults.list(who.user().id()).forEach(d -> list.add(DefaultsAdminApi.json(d)));
        respond(ex, 200, o);
    }

    public void getDefaults(Exchange ex) {
        SignedIn who = auth.require(ex);
        String model = ex.pathParam("model");
        respond(ex, 200, DefaultsAdminApi.json(defaults.get(who.user().id(), model).orElseThrow(() ->
                GatewayError.notFound("No defaults are saved for model '" + model + "'.").toException())));
    }

    public void putDefaults(Exchange ex) {
        SignedIn who = auth.require(ex);
        respond(ex, 200, DefaultsAdminApi.json(defaults.save(who.user().id(), ex.pathParam("model"), Json.parse(ex.body()))));
    }

    public void deleteDefaults(Exchange ex) {
        SignedIn who = auth.require(ex);
        respond(ex, 200, DefaultsAdminApi.json(defaults.clear(who.user().id(), ex.pathParam("model"))));
    }

    private static void respond(Exchange ex, int status, ObjectNode body) {
        ex.header("cache-control", "no-store");
        ex.respondJson(status, body);
    }
}
