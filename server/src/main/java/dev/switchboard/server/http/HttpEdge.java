package dev.switchboard.server.http;

import dev.switchboard.engine.metrics.GatewayMetrics;
import dev.switchboard.engine.pipeline.RequestTrace;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.Usage;
import io.helidon.http.Method;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * Runs the routes on Helidon SE (one virtual thread per request) and does what every request needs: a
 * request id, errors rendered in the route's format (never a stack trace; unexpected failures are a 500
 * with the request id to quote), one JSON log line and the request metrics. The only class besides
 * {@link HelidonExchange} that knows Helidon.
 */
public final class HttpEdge implements AutoCloseable {
    private static final Logger ACCESS = LoggerFactory.getLogger("switchboard.access");
    private static final Logger LOG = LoggerFactory.getLogger(HttpEdge.class);
    /** The largest request body accepted (the messages format's own limit is 32 MB). */
    public static final long MAX_BODY_BYTES = 32L * 1024 * 1024;

    private final WebServer server;
    private final GatewayMetrics metrics;

    private HttpEdge(WebServer server, GatewayMetrics metrics) {
        this.server = server;
        this.metrics = metrics;
    }

    /**
     * Starts listening on {@code host:port} (port 0 picks a free one). {@code fallbackErrors} renders the
     * 404 of paths no route matches.
     */
    public static HttpEdge start(String host, int port, List<Route> routes, ErrorRenderer fallbackErrors,
                                 GatewayMetrics metrics) {
        HttpEdge[] self = new HttpEdge[1];
        HttpRouting.Builder routing = HttpRouting.builder();
        for (Route r : routes) {
            routing.route(Method.create(r.method()), r.pattern(), (req, res) -> self[0].dispatch(r, req, res));
        }
        Route notFound = new Route("ANY", "/*", "unknown", fallbackErrors, ex -> {
            throw GatewayError.notFound("No route for " + ex.method() + " " + ex.path() + ".").toException();
        });
        routing.any((req, res) -> self[0].dispatch(notFound, req, res));
        WebServer server = WebServer.builder()
                .host(host)
                .port(port)
                .backlog(4096)
                .maxPayloadSize(MAX_BODY_BYTES)
                // streamed events are small writes flushed one by one: Nagle would hold each behind the
                // previous one's delayed ACK (about 40 ms per event)
                .connectionOptions(o -> o.tcpNoDelay(true))
                .shutdownHook(false)
                .routing(routing)
                .build()
                .start();
        self[0] = new HttpEdge(server, metrics);
        return self[0];
    }

    public int port() {
        return server.port();
    }

    private void dispatch(Route route, ServerRequest req, ServerResponse res) {
        HelidonExchange ex = new HelidonExchange(req, res, newRequestId());
        int status;
        try {
            route.handler().handle(ex);
            status = ex.status();
        } catch (GatewayException e) {
            status = fail(route, ex, e.error(), e.retryAfter());
        } catch (PayloadTooLarge e) {
            status = fail(route, ex, new GatewayError(413, "request_too_large",
                    "The request body exceeds " + MAX_BODY_BYTES + " bytes.", Optional.empty(), false), Optional.empty());
        } catch (Exception | Error e) {
            LOG.atError().addKeyValue("request_id", ex.requestId()).setCause(e).log("unexpected failure");
            status = fail(route, ex, GatewayError.internal(
                    "Internal error; quote request id " + ex.requestId() + " when reporting it."), Optional.empty());
        }
        Duration took = Duration.ofNanos(System.nanoTime() - ex.startNanos());
        log(route, ex, status, took);
        String model = ex.trace().flatMap(RequestTrace::modelAnswered)
                .or(() -> ex.trace().map(RequestTrace::modelAsked)).orElse("");
        metrics.request(route.endpoint(), model, status, took);
        ex.firstByteNanos().ifPresent(t -> metrics.timeToFirstByte(route.endpoint(), Duration.ofNanos(t - ex.startNanos())));
    }

    private static int fail(Route route, HelidonExchange ex, GatewayError error, Optional<Duration> retryAfter) {
        if (ex.committed()) {
            // a streamed response already started; the stream writer reported the error in-band
            return ex.status();
        }
        retryAfter.ifPresent(d -> ex.header("retry-after", Long.toString(Math.max(1, d.toSeconds()))));
        ex.respond(error.status(), "application/json", route.errors().render(error));
        return error.status();
    }

    private static void log(Route route, HelidonExchange ex, int status, Duration took) {
        LoggingEventBuilder line = ACCESS.atInfo()
                .addKeyValue("request_id", ex.requestId())
                .addKeyValue("method", ex.method())
                .addKeyValue("path", ex.path())
                .addKeyValue("endpoint", route.endpoint())
                .addKeyValue("status", status)
                .addKeyValue("latency_ms", took.toMillis());
        ex.trace().ifPresent(t -> {
            Usage u = t.usage();
            line.addKeyValue("model", t.modelAsked())
                    .addKeyValue("model_answered", t.modelAnswered().orElse(""))
                    .addKeyValue("attempts", t.attempts().attempts().size())
                    .addKeyValue("attempt_summary", t.attempts().summary())
                    .addKeyValue("input_tokens", u.inputTokens())
                    .addKeyValue("output_tokens", u.outputTokens())
                    .addKeyValue("usage_provenance", u.provenance().name().toLowerCase(java.util.Locale.ROOT));
            t.streamEnd().ifPresent(s -> line.addKeyValue("stream_end", s));
            if (!t.skills().isEmpty()) {
                line.addKeyValue("skills", String.join(",", t.skills()));
            }
        });
        line.log("request");
    }

    private static String newRequestId() {
        byte[] b = new byte[12];
        ThreadLocalRandom.current().nextBytes(b);
        return "req_" + HexFormat.of().formatHex(b);
    }

    @Override
    public void close() {
        server.stop();
    }

    /** Thrown by {@link Exchange#body()} when the body exceeds {@link #MAX_BODY_BYTES}. */
    static final class PayloadTooLarge extends RuntimeException {
        PayloadTooLarge(Throwable cause) {
            super("payload too large", cause, false, false);
        }
    }
}
