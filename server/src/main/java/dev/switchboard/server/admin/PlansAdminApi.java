package dev.switchboard.server.admin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.engine.catalog.Plan;
import dev.switchboard.engine.catalog.Plans;
import dev.switchboard.server.http.Exchange;
import dev.switchboard.wire.Json;

/**
 * {@code GET /admin/v1/plans}: the configured plans with the limits they set for each user on them, counted across
 * all of the user's keys ({@code {plans: [{id, models, rpm, daily_tokens}]}}, a limit {@code null} when the plan has
 * none). Plans live in the config ({@code plans:}), so this is a read-only view; {@code switchboard plans} prints
 * the same.
 */
public final class PlansAdminApi {
    private final Plans plans;

    public PlansAdminApi(Plans plans) {
        this.plans = plans;
    }

    public void list(Exchange ex) {
        ex.respondJson(200, view(plans));
    }

    /** The answer's body, shared with the CLI. */
    public static ObjectNode view(Plans plans) {
        ObjectNode o = Json.object();
        ArrayNode list = o.putArray("plans");
        for (Plan p : plans.all()) {
            ObjectNode e = list.addObject();
            e.put("id", p.id());
            ArrayNode models = e.putArray("models");
            p.models().forEach(models::add);
            if (p.rpm().isPresent()) {
                e.put("rpm", p.rpm().getAsInt());
            } else {
                e.putNull("rpm");
            }
            if (p.dailyTokens().isPresent()) {
                e.put("daily_tokens", p.dailyTokens().getAsLong());
            } else {
                e.putNull("daily_tokens");
            }
        }
        return o;
    }
}
