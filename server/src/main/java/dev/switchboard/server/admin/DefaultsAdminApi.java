package dev.switchboard.server.admin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.engine.defaults.SavedDefaultsService;
import dev.switchboard.engine.defaults.StoredDefaults;
import dev.switchboard.model.GatewayError;
import dev.switchboard.server.http.Exchange;
import dev.switchboard.wire.Json;

/**
 * The admin API's saved per-model default parameters (docs/admin.md), Bearer admin key:
 * <ul>
 *   <li>{@code PUT /admin/v1/users/{id}/defaults/{model}} with a JSON object of chat-completions parameters
 *       saves them, replacing earlier ones (200 with the saved record). The model may be an alias; the
 *       record is stored and answered under the canonical id. A parameter that cannot be saved or is out
 *       of range is a 400 naming it, exactly as in a chat request.
 *   <li>{@code GET} the same path answers the saved record, or 404 when none is saved.
 *   <li>{@code DELETE} removes it: 200 {@code {user_id, model, deleted}}, {@code deleted} false when there
 *       was nothing to remove.
 * </ul>
 * An unknown user or model is a 404 on every method. The record is
 * {@code {user_id, model, defaults: {...}, updated_at}}.
 */
public final class DefaultsAdminApi {
    private final SavedDefaultsService defaults;

    public DefaultsAdminApi(SavedDefaultsService defaults) {
        this.defaults = defaults;
    }

    public void put(Exchange ex) {
        StoredDefaults saved = defaults.save(ex.pathParam("id"), ex.pathParam("model"), Json.parse(ex.body()));
        ex.respondJson(200, json(saved));
    }

    public void get(Exchange ex) {
        String user = ex.pathParam("id");
        String model = ex.pathParam("model");
        StoredDefaults saved = defaults.get(user, model).orElseThrow(() -> GatewayError.notFound(
                "No defaults are saved for user '" + user + "' and model '" + model + "'.").toException());
        ex.respondJson(200, json(saved));
    }

    public void delete(Exchange ex) {
        ex.respondJson(200, json(defaults.clear(ex.pathParam("id"), ex.pathParam("model"))));
    }

    /** What a removal did, as the API shows it: {@code {user_id, model, deleted}}. */
    public static ObjectNode json(SavedDefaultsService.Cleared cleared) {
        ObjectNode o = Json.object();
        o.put("user_id", cleared.userId());
        o.put("model", cleared.modelId());
        o.put("deleted", cleared.removed());
        return o;
    }

    /** The saved record as the API shows it. */
    public static ObjectNode json(StoredDefaults saved) {
        ObjectNode o = Json.object();
        o.put("user_id", saved.userId());
        o.put("model", saved.modelId());
        o.set("defaults", Json.parse(saved.paramsJson()));
        o.put("updated_at", saved.updatedAt().toString());
        return o;
    }
}
