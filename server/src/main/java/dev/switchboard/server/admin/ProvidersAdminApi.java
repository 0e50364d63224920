package dev.switchboard.server.admin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.engine.catalog.Catalog;
import dev.switchboard.engine.catalog.ProviderConfig;
import dev.switchboard.engine.metrics.GatewayMetrics;
import dev.switchboard.engine.metrics.GatewayMetrics.ProviderHealth;
import dev.switchboard.server.http.Exchange;
import dev.switchboard.wire.Json;
import java.net.URI;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * {@code GET /admin/v1/providers}: every configured provider with its type and how this instance's attempts
 * against it went since start ({@code {providers: [{id, type, base_url, keys, attempts, errors, outcomes, mean_latency_ms,
 * max_latency_ms}]}}), from the gateway's own counters (the same ones {@code /metrics} exports). Key secrets never
 * appear: only how many keys there are.
 */
public final class ProvidersAdminApi {
    private final Catalog catalog;
    private final GatewayMetrics metrics;

    public ProvidersAdminApi(Catalog catalog, GatewayMetrics metrics) {
        this.catalog = catalog;
        this.metrics = metrics;
    }

    public void list(Exchange ex) {
        Map<String, ProviderHealth> health = metrics.providerHealth().stream()
                .collect(Collectors.toMap(ProviderHealth::provider, Function.identity()));
        ObjectNode o = Json.object();
        ArrayNode list = o.putArray("providers");
        for (ProviderConfig p : catalog.providers()) {
            ObjectNode e = list.addObject();
            e.put("id", p.id());
            e.put("type", p.type().wire());
            e.put("base_url", withoutSecrets(p.baseUrl()));
            e.put("keys", p.keys().size());
            ProviderHealth h = health.get(p.id());
            e.put("attempts", h == null ? 0 : h.attempts());
            e.put("errors", h == null ? 0 : h.errors());
            ObjectNode outcomes = e.putObject("outcomes");
            if (h != null) {
                h.outcomes().forEach(outcomes::put);
            }
            e.put("mean_latency_ms", h == null ? 0 : h.meanLatencyMs());
            e.put("max_latency_ms", h == null ? 0 : h.maxLatencyMs());
        }
        ex.header("cache-control", "no-store");
        ex.respondJson(200, o);
    }

    /** Scheme, host, port and path only: user info and query may hold credentials. */
    static String withoutSecrets(URI url) {
        return url.getScheme() + "://" + url.getHost() + (url.getPort() < 0 ? "" : ":" + url.getPort())
                + (url.getRawPath() == null ? "" : url.getRawPath());
    }
}
