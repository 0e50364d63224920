package dev.switchboard.server.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.model.GatewayError;
import dev.switchboard.server.http.Exchange;
import dev.switchboard.server.ops.Readiness;
import dev.switchboard.wire.Json;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;

/**
 * {@code /health} (the process answers: liveness), {@code /ready} (readiness: the database and, when configured, Redis
 * answer, and the process is not shutting down; see {@link Readiness}), {@code /metrics}
 * (Prometheus text, every meter with HELP text). With {@code metrics.token} set, {@code /metrics} answers only
 * {@code Authorization: Bearer <token>} (a 401 otherwise); health and readiness stay open for load balancers.
 */
public final class OpsApi {
    private final Readiness readiness;
    private final PrometheusMeterRegistry registry;
    private final Optional<byte[]> metricsToken;

    public OpsApi(Readiness readiness, PrometheusMeterRegistry registry, Optional<String> metricsToken) {
        this.readiness = readiness;
        this.registry = registry;
        this.metricsToken = metricsToken.map(t -> t.getBytes(StandardCharsets.UTF_8));
    }

    public void health(Exchange ex) {
        ObjectNode o = Json.object();
        o.put("status", "ok");
        ex.respondJson(200, o);
    }

    /**
     * 200 when ready, else 503; the body names each dependency's state and, in {@code not_ready}, what keeps the
     * instance out of the pool: {@code {"status":"not ready","not_ready":["redis"],"database":"ok","redis":"unreachable",
     * "config":"loaded"}}, with {@code "shutdown":"shutting down"} while draining.
     */
    public void ready(Exchange ex) {
        Readiness.Report report = readiness.report();
        ObjectNode o = Json.object();
        o.put("status", report.ready() ? "ready" : "not ready");
        var notReady = o.putArray("not_ready");
        report.notReady().forEach(notReady::add);
        report.states().forEach(o::put);
        o.put("config", "loaded");
        ex.respondJson(report.ready() ? 200 : 503, o);
    }

    public void metrics(Exchange ex) {
        if (metricsToken.isPresent()) {
            byte[] presented = ex.header("authorization").filter(h -> h.regionMatches(true, 0, "Bearer ", 0, 7))
                    .map(h -> h.substring(7).strip().getBytes(StandardCharsets.UTF_8)).orElse(new byte[0]);
            if (!MessageDigest.isEqual(presented, metricsToken.get())) {
                ex.header("www-authenticate", "Bearer realm=\"metrics\"");
                throw GatewayError.unauthorized("GET /metrics needs the metrics token: Authorization: Bearer <metrics.token>.")
                        .toException();
            }
        }
        ex.respond(200, "text/plain; version=0.0.4; charset=utf-8", registry.scrape().getBytes(StandardCharsets.UTF_8));
    }
}
