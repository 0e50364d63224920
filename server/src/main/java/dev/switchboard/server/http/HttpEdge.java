package dev.switchboard.server.http;

import dev.switchboard.engine.metrics.GatewayMetrics;
import dev.switchboard.engine.pipeline.RequestTrace;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.Usage;
import dev.switchboard.store.StoreException;
import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.helidon.webserver.http1.Http1Config;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * Runs the routes on Helidon SE (one virtual thread per request) and does what every request needs: a
 * request id, the route's {@link Guard} before its handler, errors rendered in the route's format (never a stack
 * trace; unexpected failures are a 500 with the request id to quote), one JSON log line and the request metrics. With {@link HelidonExchange} and
 * {@link HeaderDeadline}, the only classes that know Helidon.
 *
 * <p>It also answers what no handler sees, the same way for every route, including routes added later:
 * a known path asked with another method is a 405 with {@code Allow}; {@code OPTIONS} on a known path is
 * a 204 with {@code Allow} (and, for an origin in the {@link CorsPolicy}, the CORS preflight answer); a body
 * over the limit, an overlong URI or header block, or malformed HTTP are 4xx in the envelope of the format
 * the path belongs to, with a sentence a person understands, never an empty body or a 5xx.
 */
public final class HttpEdge implements AutoCloseable {
    private static final Logger ACCESS = LoggerFactory.getLogger("switchboard.access");
    private static final Logger LOG = LoggerFactory.getLogger(HttpEdge.class);
    /** The default largest request body (the messages format's own limit is 32 MB). */
    public static final long DEFAULT_MAX_BODY_BYTES = 32L * 1024 * 1024;
    /** The longest request line (method, path and query) read; longer ones are a 414. */
    static final int MAX_REQUEST_LINE = 64 * 1024;
    /** The largest header block read; larger ones are a 431. */
    static final int MAX_HEADER_BYTES = 64 * 1024;
    /** How long, at most, the rest of a refused or unread request body is read and dropped before closing. */
    static final Duration LINGER_TIME = Duration.ofSeconds(5);
    /** How much, at least, of a refused or unread request body is read and dropped before closing. */
    static final long LINGER_BYTES = 128L * 1024 * 1024;

    private final WebServer server;
    private final GatewayMetrics metrics;
    private final RouteTable table;
    private final ErrorRenderer fallbackErrors;
    private final CorsPolicy cors;
    private final long maxBodyBytes;
    private final Duration readTimeout;
    private final Drain drain;
    private final RequestObserver observer;
    /** The endpoints still served while draining: a load balancer must keep seeing the instance leave. */
    private static final Set<String> SERVED_WHILE_DRAINING = Set.of("health", "ready", "metrics");

    private final HeaderDeadline headerDeadline;

    private HttpEdge(WebServer server, GatewayMetrics metrics, RouteTable table, ErrorRenderer fallbackErrors,
                     CorsPolicy cors, long maxBodyBytes, Duration readTimeout, Drain drain, RequestObserver observer,
                     HeaderDeadline headerDeadline) {
        this.headerDeadline = headerDeadline;
        this.server = server;
        this.metrics = metrics;
        this.table = table;
        this.fallbackErrors = fallbackErrors;
        this.cors = cors;
        this.maxBodyBytes = maxBodyBytes;
        this.readTimeout = readTimeout;
        this.drain = drain;
        this.observer = observer;
    }

    /**
     * Starts listening on {@code host:port} (port 0 picks a free one). {@code fallbackErrors} renders the
     * errors of paths no route matches; bodies above {@code maxBodyBytes} are refused with 413.
     *
     * @throws CannotListen when the address cannot be bound (port in use, not this machine's address)
     */
    public static HttpEdge start(String host, int port, List<Route> routes, ErrorRenderer fallbackErrors,
                                 GatewayMetrics metrics, CorsPolicy cors, long maxBodyBytes) {
        return start(host, port, routes, fallbackErrors, metrics, cors, maxBodyBytes, DEFAULT_READ_TIMEOUT);
    }

    /** The default of {@code readTimeout}: how long after its headers a request's whole body must have arrived. */
    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(30);

    /**
     * As {@link #start(String, int, List, ErrorRenderer, GatewayMetrics, CorsPolicy, long)}, with bodies that must
     * arrive whole within {@code readTimeout} of their headers (a client dripping bytes gets a 408).
     */
    public static HttpEdge start(String host, int port, List<Route> routes, ErrorRenderer fallbackErrors,
                                 GatewayMetrics metrics, CorsPolicy cors, long maxBodyBytes, Duration readTimeout) {
        return start(host, port, routes, fallbackErrors, metrics, cors, maxBodyBytes, readTimeout, new Drain());
    }

    /**
     * As {@link #start(String, int, List, ErrorRenderer, GatewayMetrics, CorsPolicy, long, Duration)}, counting the
     * requests it serves in {@code drain} and refusing new ones once the drain began.
     */
    public static HttpEdge start(String host, int port, List<Route> routes, ErrorRenderer fallbackErrors,
                                 GatewayMetrics metrics, CorsPolicy cors, long maxBodyBytes, Duration readTimeout,
                                 Drain drain) {
        return start(host, port, routes, fallbackErrors, metrics, cors, maxBodyBytes, readTimeout, drain, RequestObserver.NONE);
    }

    /** As above, with {@code observer} told of every routed request (tracing's server spans). */
    public static HttpEdge start(String host, int port, List<Route> routes, ErrorRenderer fallbackErrors,
                                 GatewayMetrics metrics, CorsPolicy cors, long maxBodyBytes, Duration readTimeout,
                                 Drain drain, RequestObserver observer) {
        probe(host, port);
        RouteTable table = new RouteTable(routes);
        EdgeHolder self = new EdgeHolder();
        HeaderDeadline headerDeadline = new HeaderDeadline(readTimeout, path -> table.anyRoute(path).map(Route::errors)
                .orElse(fallbackErrors).render(new GatewayError(408, "invalid_request_error", "The request headers did not "
                        + "arrive within " + readTimeout.toSeconds() + " seconds of the request line; send them at once.",
                        Optional.empty(), false)), Duration.ofMillis(250));
        HttpRouting.Builder routing = HttpRouting.builder();
        for (Route r : routes) {
            routing.route(Method.create(r.method()), r.pattern(), (req, res) -> self.edge.dispatch(r, req, res));
        }
        routing.any((req, res) -> self.edge.unrouted(req, res));
        WebServer server = WebServer.builder()
                .host(host)
                .port(port)
                .backlog(4096)
                // the body limit is the edge's (HelidonExchange.body): Helidon's own refuses a Content-Length over it
                // before any route runs and closes the connection with the body unread, which resets it under a client
                // still sending, so the client gets a reset instead of the 413
                .maxPayloadSize(-1)
                .addProtocol(Http1Config.builder().maxPrologueLength(MAX_REQUEST_LINE).maxHeadersSize(MAX_HEADER_BYTES)
                        .addReceiveListener(headerDeadline).addSendListener(headerDeadline).build())
                .errorHandling(e -> e.includeEntity(true))
                .directHandlers(d -> {
                    for (DirectHandler.EventType type : DirectHandler.EventType.values()) {
                        d.addHandler(type, (request, event, status, headers, message) ->
                                self.edge.direct(request, status, headers, message));
                    }
                })
                // streamed events are small writes flushed one by one: Nagle would hold each behind the
                // previous one's delayed ACK (about 40 ms per event)
                .connectionOptions(o -> o.tcpNoDelay(true))
                .shutdownHook(false)
                .routing(routing)
                .build();
        self.edge = new HttpEdge(server, metrics, table, fallbackErrors, cors, maxBodyBytes, readTimeout, drain, observer,
                headerDeadline);
        server.start();
        if (!server.isRunning() || server.port() < 0) {
            server.stop();
            headerDeadline.close();
            throw new CannotListen("the HTTP server did not start (see the log line above)");
        }
        return self.edge;
    }

    /**
     * Initialises Helidon's routing classes, whose static set-up builds Helidon's service registry (a good part of a
     * start's work): a start calls this on a second thread while it reads its config, so that building the routes
     * finds it done.
     */
    public static void loadClasses() {
        HttpRouting.builder();
    }

    /** Lets the routing lambdas reach the edge, which exists only once the server is built. */
    private static final class EdgeHolder {
        volatile HttpEdge edge;
    }

    public int port() {
        return server.port();
    }

    /** A request no route took: an unknown path (404), another method (405), or {@code OPTIONS} (204). */
    private void unrouted(ServerRequest req, ServerResponse res) {
        Set<String> methods = table.methods(req.path().path());
        Route route = table.anyRoute(req.path().path()).map(r -> new Route(req.prologue().method().text(), r.pattern(),
                r.endpoint(), r.errors(), ex -> refuse(ex, methods))).orElseGet(() -> new Route("ANY", "/*", "unknown",
                fallbackErrors, ex -> refuse(ex, methods)));
        dispatch(route, req, res);
    }

    private void refuse(Exchange ex, Set<String> methods) {
        // a path whose route takes this very method was refused by the server's own matching (a dot segment...)
        if (methods.isEmpty() || methods.contains(ex.method())) {
            throw GatewayError.notFound("No route for " + ex.method() + " " + ex.path() + ".").toException();
        }
        Set<String> allow = new LinkedHashSet<>(methods);
        allow.add("OPTIONS");
        String allowed = String.join(", ", allow);
        ex.header("allow", allowed);
        if (ex.method().equals("OPTIONS")) {
            // a preflight from an allowed origin (dispatch already added Access-Control-Allow-Origin for it)
            if (ex.header("origin").flatMap(cors::allowOrigin).isPresent()) {
                ex.header("access-control-allow-methods", allowed);
                ex.header("access-control-allow-headers", ex.header("access-control-request-headers").orElse("*"));
                ex.header("access-control-max-age", CorsPolicy.MAX_AGE);
            }
            ex.respond(204, "text/plain", new byte[0]);
            return;
        }
        throw new GatewayError(405, "method_not_allowed", ex.method() + " is not supported on " + ex.path()
                + "; it takes " + String.join(" or ", methods) + ".", Optional.empty(), false).toException();
    }

    /**
     * Failures the server library meets before any route runs (body over the limit, overlong request line
     * or headers, broken HTTP framing): answered in the envelope of the path's format when the path is
     * known, else in the common one.
     */
    private DirectHandler.TransportResponse direct(DirectHandler.TransportRequest request, Status status,
                                                   ServerResponseHeaders headers, String libraryMessage) {
        int code = status.code();
        String path = request.path();
        GatewayError error = switch (code) {
            case 413 -> tooLarge();
            case 414 -> new GatewayError(414, "invalid_request_error", "The request URI is longer than "
                    + MAX_REQUEST_LINE + " bytes.", Optional.empty(), false);
            case 431 -> headersTooLarge();
            default -> code >= 500
                    ? GatewayError.internal("The server could not process this request; please retry.")
                    : String.valueOf(libraryMessage).toLowerCase(Locale.ROOT).contains("header")
                            && String.valueOf(libraryMessage).toLowerCase(Locale.ROOT).contains("size")
                    ? headersTooLarge()
                    : GatewayError.invalidRequest("The request could not be read as HTTP/1.1 (" + status.reasonPhrase() + ").");
        };
        ErrorRenderer errors = path == null || path.isEmpty() ? fallbackErrors
                : table.anyRoute(path).map(Route::errors).orElse(fallbackErrors);
        headers.set(HeaderNames.CONTENT_TYPE, "application/json");
        headers.set(HeaderNames.create("x-request-id"), newRequestId());
        LOG.atInfo().addKeyValue("status", error.status()).addKeyValue("path", path == null ? "" : path)
                .addKeyValue("reason", String.valueOf(libraryMessage)).log("request refused before routing");
        return DirectHandler.TransportResponse.builder()
                .status(Status.create(error.status()))
                .headers(headers)
                .entity(errors.render(error))
                .keepAlive(false)
                .build();
    }

    private GatewayError tooLarge() {
        return new GatewayError(413, "request_too_large", "The request body is larger than " + maxBodyBytes
                + " bytes, the most this gateway accepts.", Optional.empty(), false);
    }

    private static GatewayError headersTooLarge() {
        return new GatewayError(431, "invalid_request_error", "The request headers are larger than "
                + MAX_HEADER_BYTES + " bytes in all; is an API key or a cookie much longer than it should be?",
                Optional.empty(), false);
    }

    private void dispatch(Route route, ServerRequest req, ServerResponse res) {
        drain.enter();
        try {
            serve(route, req, res);
        } finally {
            drain.exit();
        }
    }

    private void serve(Route route, ServerRequest req, ServerResponse res) {
        HelidonExchange ex = new HelidonExchange(req, res, newRequestId(), readTimeout, maxBodyBytes);
        ex.header("origin").flatMap(cors::allowOrigin).ifPresent(origin -> {
            ex.header("access-control-allow-origin", origin);
            ex.header("access-control-expose-headers", CorsPolicy.EXPOSED);
            ex.header("vary", "Origin");
        });
        int status;
        Optional<GatewayError> refusal = Optional.empty();
        RequestObserver.Observation observation = observer.start(route, ex);
        try {
            if (drain.draining() && !SERVED_WHILE_DRAINING.contains(route.endpoint())) {
                // the client's next try goes to another instance: no keep-alive back to this one
                ex.header("connection", "close");
                throw GatewayError.upstreamUnavailable("This gateway instance is shutting down; retry the request "
                        + "(another instance will take it).").toException();
            }
            route.guard().check(ex);
            route.handler().handle(ex);
            status = ex.status();
        } catch (GatewayException e) {
            refusal = Optional.of(e.error());
            status = fail(route, ex, e.error(), e.retryAfter());
        } catch (PayloadTooLarge e) {
            ex.header("connection", "close");
            refusal = Optional.of(tooLarge());
            status = fail(route, ex, refusal.get(), Optional.empty());
        } catch (SlowBody e) {
            ex.header("connection", "close");
            refusal = Optional.of(new GatewayError(408, "invalid_request_error", "The request body did not arrive within "
                    + readTimeout.toSeconds() + " seconds of its headers; send it at once.", Optional.empty(), false));
            status = fail(route, ex, refusal.get(), Optional.empty());
        } catch (UnreadableBody e) {
            ex.header("connection", "close");
            refusal = Optional.of(GatewayError.invalidRequest("The request body could not be read: " + e.getMessage()));
            status = fail(route, ex, refusal.get(), Optional.empty());
        } catch (StoreException e) {
            refusal = Optional.of(e.busyOrUnreachable() ? databaseBusy(ex, e) : unexpected(ex, e));
            status = fail(route, ex, refusal.get(), refusal.get().retryable() ? Optional.of(Duration.ofSeconds(1)) : Optional.empty());
        } catch (Exception | Error e) {
            refusal = Optional.of(unexpected(ex, e));
            status = fail(route, ex, refusal.get(), Optional.empty());
        }
        observation.end(status, refusal);
        Duration took = Duration.ofNanos(System.nanoTime() - ex.startNanos());
        log(route, ex, status, took, refusal);
        String model = ex.trace().flatMap(RequestTrace::modelAnswered)
                .or(() -> ex.trace().map(RequestTrace::modelAsked)).orElse("");
        metrics.request(route.endpoint(), model, status, took);
        ex.firstByteNanos().ifPresent(t -> metrics.timeToFirstByte(route.endpoint(), Duration.ofNanos(t - ex.startNanos())));
        // Helidon answers "Connection: close" with the header but then reads the next request on the connection (and
        // takes what follows a refused body for one); ending the connection is the edge's to do, after a lingering
        // read of what the client still sends, so that it gets its answer instead of a reset
        if (ex.finish(LINGER_TIME, Math.max(maxBodyBytes, LINGER_BYTES)) && ex.responseSent()) {
            throw new CloseConnectionException("the connection ends after this response");
        }
    }

    /** The database queue is full or the database is down: the caller may retry; admission wrote nothing. */
    private static GatewayError databaseBusy(HelidonExchange ex, StoreException e) {
        LOG.atWarn().addKeyValue("request_id", ex.requestId()).addKeyValue("error", e.getMessage())
                .log("database busy or unreachable");
        return new GatewayError(503, "api_error", "The gateway's database is busy or out of reach; try again shortly"
                + " (request id " + ex.requestId() + ").", Optional.empty(), true);
    }

    private static GatewayError unexpected(HelidonExchange ex, Throwable e) {
        LOG.atError().addKeyValue("request_id", ex.requestId()).setCause(e).log("unexpected failure");
        return GatewayError.internal("Internal error; quote request id " + ex.requestId() + " when reporting it.");
    }

    private static int fail(Route route, HelidonExchange ex, GatewayError error, Optional<Duration> retryAfter) {
        if (ex.committed()) {
            // a streamed response already started; the stream writer reported the error in-band
            return ex.status();
        }
        // whole seconds, rounded up (a client retrying on the dot must not come early), and the exact wait in
        // milliseconds, which the OpenAI and Anthropic SDKs prefer when present
        retryAfter.ifPresent(d -> {
            ex.header("retry-after", Long.toString(Math.max(1, (d.toMillis() + 999) / 1000)));
            ex.header("retry-after-ms", Long.toString(Math.max(0, d.toMillis())));
        });
        ex.respond(error.status(), "application/json", route.errors().render(error));
        return error.status();
    }

    /**
     * The access line. A refused request also names what was wrong ({@code error_type}, {@code error_message},
     * {@code error_param}), exactly as the caller was told, so an incompatibility shows in the log without
     * the client's side of the conversation. The messages never hold secrets: they are the ones callers see.
     */
    private static void log(Route route, HelidonExchange ex, int status, Duration took, Optional<GatewayError> refusal) {
        LoggingEventBuilder line = ACCESS.atInfo()
                .addKeyValue("request_id", ex.requestId())
                .addKeyValue("method", ex.method())
                .addKeyValue("path", ex.path())
                .addKeyValue("endpoint", route.endpoint())
                .addKeyValue("status", status)
                .addKeyValue("latency_ms", took.toMillis());
        ex.trace().ifPresent(t -> {
            Usage u = t.usage();
            if (!t.userId().isEmpty()) {
                line.addKeyValue("user_id", t.userId());
            }
            line.addKeyValue("model", t.modelAsked())
                    .addKeyValue("model_answered", t.modelAnswered().orElse(""))
                    .addKeyValue("attempts", t.attempts().attempts().size())
                    .addKeyValue("attempt_summary", t.attempts().summary())
                    .addKeyValue("input_tokens", u.inputTokens())
                    .addKeyValue("output_tokens", u.outputTokens())
                    .addKeyValue("usage_provenance", u.provenance().name().toLowerCase(java.util.Locale.ROOT))
                    .addKeyValue("cost_usd", dev.switchboard.engine.account.Usd.format(t.costNanos()));
            t.streamEnd().ifPresent(s -> line.addKeyValue("stream_end", s));
            if (!t.skills().isEmpty()) {
                line.addKeyValue("skills", String.join(",", t.skills()));
            }
        });
        refusal.ifPresent(e -> {
            line.addKeyValue("error_type", e.type()).addKeyValue("error_message", e.message());
            e.param().ifPresent(p -> line.addKeyValue("error_param", p));
        });
        line.log("request");
    }

    /**
     * {@code req_}, 48 bits of the current millisecond, then 80 random bits, in hex. The time first makes ids sort by
     * arrival: the usage record and the ledger entry are keyed by the request id, and ids that arrive in order append
     * to the last page of those indexes instead of dirtying a random page each (on SQLite every dirtied page is written
     * to the WAL at commit). The random part keeps ids unique however many requests share a millisecond.
     */
    static String newRequestId() {
        return newRequestId(System.currentTimeMillis(), ThreadLocalRandom.current());
    }

    static String newRequestId(long epochMillis, RandomGenerator random) {
        byte[] b = new byte[16];
        random.nextBytes(b);
        for (int i = 5; i >= 0; i--) {
            b[i] = (byte) epochMillis;
            epochMillis >>>= 8;
        }
        return "req_" + HexFormat.of().formatHex(b);
    }

    @Override
    public void close() {
        server.stop();
        headerDeadline.close();
    }

    /**
     * Checks that {@code host:port} can be bound before the server tries, so the common failures (port in
     * use, address not on this machine) become one clear sentence instead of the server library's stack
     * trace. The socket is closed at once; the server binds the same address with the same options.
     */
    private static void probe(String host, int port) {
        InetAddress address;
        try {
            address = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new CannotListen("the host name '" + host + "' does not resolve");
        }
        if (port == 0) {
            return;
        }
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(address, port));
        } catch (BindException e) {
            String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
            throw new CannotListen(m.contains("in use") ? "port " + port + " is already in use by another program"
                    : m.contains("assign") ? "the address " + host + " is not one of this machine's"
                    : m.contains("permission") ? "binding port " + port + " needs privileges this process lacks"
                    : "the address cannot be bound (" + e.getMessage() + ")");
        } catch (IOException e) {
            throw new CannotListen("the address cannot be bound (" + e.getMessage() + ")");
        }
    }

    /** The server cannot listen where it was asked to; the message says why, in one sentence. */
    public static final class CannotListen extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CannotListen(String reason) {
            super(reason, null, false, false);
        }
    }

    /** Thrown by {@link Exchange#body()} when the body exceeds the limit (a chunked body, found while reading). */
    static final class PayloadTooLarge extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PayloadTooLarge(Throwable cause) {
            super("payload too large", cause, false, false);
        }
    }

    /** Thrown by {@link Exchange#body()} when the body arrives more slowly than the read timeout allows. */
    static final class SlowBody extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SlowBody() {
            super("request body too slow", null, false, false);
        }
    }

    /** Thrown by {@link Exchange#body()} when the body's framing is broken (bad chunk sizes, early end). */
    static final class UnreadableBody extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnreadableBody(String reason, Throwable cause) {
            super(reason, cause, false, false);
        }
    }
}
