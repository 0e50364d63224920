package dev.switchboard.server.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.server.http.Exchange;
import dev.switchboard.store.Database;
import dev.switchboard.wire.Json;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;

/** {@code /health} (the process answers), {@code /ready} (config loaded and database reachable), {@code /metrics} (Prometheus text). */
public final class OpsApi {
    private final Database database;
    private final PrometheusMeterRegistry registry;

    public OpsApi(Database database, PrometheusMeterRegistry registry) {
        this.database = database;
        this.registry = registry;
    }

    public void health(Exchange ex) {
        ObjectNode o = Json.object();
        o.put("status", "ok");
        ex.respond(200, "application/json", Json.writeBytes(o));
    }

    public void ready(Exchange ex) {
        boolean db = database.ping();
        ObjectNode o = Json.object();
        o.put("status", db ? "ready" : "not ready");
        o.put("database", db ? "ok" : "unreachable");
        o.put("config", "loaded");
        ex.respond(db ? 200 : 503, "application/json", Json.writeBytes(o));
    }

    public void metrics(Exchange ex) {
        ex.respond(200, "text/plain; version=0.0.4; charset=utf-8", registry.scrape().getBytes(StandardCharsets.UTF_8));
    }
}
