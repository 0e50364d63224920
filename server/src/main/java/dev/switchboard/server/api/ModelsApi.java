package dev.switchboard.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.engine.catalog.AllowedParams;
import dev.switchboard.engine.catalog.Capabilities;
import dev.switchboard.engine.catalog.Catalog;
import dev.switchboard.engine.catalog.ModelEntry;
import dev.switchboard.engine.catalog.Pricing;
import dev.switchboard.engine.catalog.ProviderType;
import dev.switchboard.engine.pipeline.Caller;
import dev.switchboard.model.GatewayError;
import dev.switchboard.server.http.Exchange;
import dev.switchboard.wire.Json;
import java.math.BigDecimal;

/**
 * Model discovery: {@code GET /v1/models} in the OpenAI list shape plus each model's capability flags,
 * limits and prices (USD per million tokens), listing only models the caller's plan and key may use; and
 * {@code GET /api/models/{id}/allowed-params}.
 */
public final class ModelsApi {
    private final Catalog catalog;
    private final Authenticator auth;
    /** Models carry no creation date in config; a fixed epoch keeps the field present for SDKs that require it. */
    private final long created;

    public ModelsApi(Catalog catalog, Authenticator auth, long startedEpochSeconds) {
        this.catalog = catalog;
        this.auth = auth;
        this.created = startedEpochSeconds;
    }

    public void list(Exchange ex) {
        Caller caller = auth.authenticate(ex, Credentials.BEARER, "models");
        ObjectNode body = Json.object();
        body.put("object", "list");
        ArrayNode data = body.putArray("data");
        for (ModelEntry m : catalog.models()) {
            if (m.availableOn(caller.plan()) && caller.mayUseModel(m.id())) {
                data.add(describe(m));
            }
        }
        ex.respond(200, "application/json", Json.writeBytes(body));
    }

    /** One model record: the OpenAI model object plus Switchboard's flags, limits and prices. */
    public ObjectNode describe(ModelEntry m) {
        ObjectNode o = Json.object();
        o.put("id", m.id());
        o.put("object", "model");
        o.put("created", created);
        o.put("owned_by", m.ownedBy());
        m.displayName().ifPresent(n -> o.put("display_name", n));
        o.put("context_length", m.contextLength());
        o.put("max_output_tokens", m.maxOutputTokens());
        Capabilities c = m.capabilities();
        o.put("supports_reasoning", c.supportsReasoning());
        o.put("supports_vision", c.supportsVision());
        o.put("supports_tools", c.supportsTools());
        o.put("supports_caching", c.supportsCaching());
        o.put("supports_json", c.supportsJson());
        ArrayNode aliases = o.putArray("aliases");
        m.aliases().forEach(aliases::add);
        Pricing p = m.pricing();
        ObjectNode pricing = o.putObject("pricing");
        pricing.put("unit", "USD per million tokens");
        pricing.put("input", usd(p.inputPerMillion()));
        pricing.put("output", usd(p.outputPerMillion()));
        pricing.put("cache_read", usd(p.cacheReadPerMillion()));
        pricing.put("cache_write_5m", usd(p.cacheWrite5mPerMillion()));
        pricing.put("cache_write_1h", usd(p.cacheWrite1hPerMillion()));
        return o;
    }

    private static BigDecimal usd(long nanos) {
        BigDecimal v = BigDecimal.valueOf(nanos, 9).stripTrailingZeros();
        return v.scale() < 0 ? v.setScale(0) : v;
    }

    /** Public: which parameters a model allows (derived from its flags and its providers' types). */
    public void allowedParams(Exchange ex) {
        String id = ex.pathParam("id");
        ModelEntry m = catalog.resolve(id).orElseThrow(() -> GatewayError.modelNotFound(id).toException());
        ObjectNode body = Json.object();
        body.put("id", m.id());
        ArrayNode params = body.putArray("allowed_params");
        AllowedParams.of(m, catalog).forEach(params::add);
        ArrayNode types = body.putArray("provider_types");
        for (ProviderType t : AllowedParams.providerTypes(m, catalog)) {
            types.add(t.wire());
        }
        ex.respond(200, "application/json", Json.writeBytes(body));
    }
}
