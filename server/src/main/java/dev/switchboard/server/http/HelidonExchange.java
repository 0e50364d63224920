package dev.switchboard.server.http;

import dev.switchboard.engine.pipeline.RequestTrace;
import io.helidon.http.HeaderNames;
import io.helidon.http.RequestException;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@link Exchange} over Helidon's request and response. A successful answer names, in
 * {@value #DROPPED_FIELDS_HEADER}, the request fields its upstream did not get ({@link RequestTrace#notCarried()}).
 */
final class HelidonExchange implements Exchange {
    /** Names the request fields the answering upstream did not get, comma-separated. */
    static final String DROPPED_FIELDS_HEADER = "x-switchboard-dropped-fields";
    private static final int MAX_DROPPED_NAMES = 32;
    private static final int MAX_NAME = 100;

    private final ServerRequest req;
    private final ServerResponse res;
    private final String requestId;
    private final long startNanos = System.nanoTime();
    private OptionalLong firstByteNanos = OptionalLong.empty();
    private boolean committed;
    private int status = 200;
    private Optional<RequestTrace> trace = Optional.empty();
    private byte[] body;
    private final java.time.Duration readTimeout;
    private final long maxBodyBytes;
    private final java.util.List<Runnable> beforeCommit = new java.util.ArrayList<>(1);
    /** The request body's stream once opened; kept open after a refusal so that the rest can be drained. */
    private java.io.InputStream bodyStream;

    HelidonExchange(ServerRequest req, ServerResponse res, String requestId, java.time.Duration readTimeout,
                    long maxBodyBytes) {
        this.req = req;
        this.res = res;
        this.requestId = requestId;
        this.readTimeout = readTimeout;
        this.maxBodyBytes = maxBodyBytes;
        res.header("x-request-id", requestId);
    }

    @Override
    public String method() {
        return req.prologue().method().text();
    }

    @Override
    public String path() {
        return req.path().path();
    }

    @Override
    public Optional<String> header(String name) {
        return req.headers().first(HeaderNames.create(name));
    }

    @Override
    public java.util.List<String> headers(String name) {
        io.helidon.http.HeaderName h = HeaderNames.create(name);
        return req.headers().contains(h) ? req.headers().get(h).allValues() : java.util.List.of();
    }

    @Override
    public Optional<String> query(String name) {
        return req.query().first(name).asOptional();
    }

    @Override
    public String pathParam(String name) {
        return req.path().pathParameters().get(name);
    }

    @Override
    public byte[] body() {
        if (body == null) {
            try {
                if (req.content().hasEntity() && req.headers().contentLength().orElse(0) > maxBodyBytes) {
                    // refused before a byte of it is read; the edge drains what the client still sends, then closes
                    throw new HttpEdge.PayloadTooLarge(null);
                }
                body = req.content().hasEntity() ? readBody() : new byte[0];
            } catch (HttpEdge.SlowBody | HttpEdge.PayloadTooLarge e) {
                throw e;
            } catch (RequestException e) {
                if (e.status().code() == 413) {
                    throw new HttpEdge.PayloadTooLarge(e);
                }
                throw new HttpEdge.UnreadableBody(e.status().reasonPhrase().toLowerCase(java.util.Locale.ROOT), e);
            } catch (UncheckedIOException | IOException e) {
                if (timedOut(e)) {
                    throw new HttpEdge.SlowBody();
                }
                throw new HttpEdge.UnreadableBody("the connection ended before the whole body arrived", e);
            } catch (RuntimeException e) {
                if (String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT).contains("payload")) {
                    throw new HttpEdge.PayloadTooLarge(e);
                }
                // reading bytes off the wire fails only on what the client sent (e.g. a chunk size that is not hex)
                throw new HttpEdge.UnreadableBody("its chunked framing is broken (a chunk size is not valid)", e);
            }
        }
        return body;
    }

    private static boolean timedOut(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    /**
     * The body, read in pieces so that a client dripping it (slowloris) is cut off once {@code readTimeout} has
     * passed since the headers arrived; each read waits at most the socket's own read timeout.
     */
    private byte[] readBody() throws java.io.IOException {
        long deadline = startNanos + readTimeout.toNanos();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        byte[] buffer = new byte[64 * 1024];
        java.io.InputStream in = bodyStream();
        int n;
        while ((n = in.read(buffer)) >= 0) {
            if (out.size() + (long) n > maxBodyBytes) {
                throw new HttpEdge.PayloadTooLarge(null);
            }
            out.write(buffer, 0, n);
            if (System.nanoTime() - deadline > 0) {
                throw new HttpEdge.SlowBody();
            }
        }
        in.close();
        return out.toByteArray();
    }

    private java.io.InputStream bodyStream() {
        if (bodyStream == null) {
            bodyStream = req.content().inputStream();
        }
        return bodyStream;
    }

    /**
     * Ends the exchange's use of its connection, after the response: whether the connection must now be closed. It
     * must when the client asked ({@code Connection: close}), when the response said so (a body refused part-way), or
     * when part of the request body is still unread and does not end within {@code lingerBytes} and {@code lingerTime}.
     * Unread body bytes are read and dropped first (a lingering close): a socket closed with unread input is reset,
     * and a client still sending would lose the answer it was sent. A client that waits for {@code 100 Continue} has
     * sent no body and is not waited for.
     */
    boolean finish(java.time.Duration lingerTime, long lingerBytes) {
        boolean close = req.headers().containsToken(io.helidon.http.HeaderValues.CONNECTION_CLOSE)
                || res.headers().containsToken(io.helidon.http.HeaderValues.CONNECTION_CLOSE);
        if (!req.content().hasEntity() || body != null || bodyStream == null && req.content().consumed()) {
            return close;
        }
        if (bodyStream == null && req.headers().containsToken(io.helidon.http.HeaderValues.EXPECT_100)) {
            return true;
        }
        long deadline = System.nanoTime() + lingerTime.toNanos();
        long drained = 0;
        byte[] buffer = new byte[64 * 1024];
        try {
            java.io.InputStream in = bodyStream();
            int n;
            while ((n = in.read(buffer)) >= 0) {
                drained += n;
                if (drained > lingerBytes || System.nanoTime() - deadline > 0) {
                    return true;
                }
            }
            in.close();
            return close;
        } catch (IOException | RuntimeException e) {
            return true; // the framing broke or the client left: nothing to keep
        }
    }

    /** Whether the whole response has been written (a stream: ended). */
    boolean responseSent() {
        return res.isSent();
    }

    @Override
    public String remoteAddress() {
        return req.remotePeer().address() instanceof java.net.InetSocketAddress a && a.getAddress() != null
                ? a.getAddress().getHostAddress() : String.valueOf(req.remotePeer().address());
    }

    @Override
    public String requestId() {
        return requestId;
    }

    @Override
    public void header(String name, String value) {
        res.header(name, value);
    }

    @Override
    public void beforeCommit(Runnable hook) {
        beforeCommit.add(hook);
    }

    private void commit() {
        committed = true;
        for (Runnable hook : beforeCommit) {
            hook.run();
        }
        beforeCommit.clear();
    }

    @Override
    public void respond(int status, String contentType, byte[] body) {
        this.status = status;
        commit();
        firstByteNanos = OptionalLong.of(System.nanoTime());
        res.status(status);
        res.header(HeaderNames.CONTENT_TYPE, contentType);
        droppedFields(status);
        res.send(body);
    }

    @Override
    public OutputStream openStream(int status, String contentType) {
        this.status = status;
        commit();
        firstByteNanos = OptionalLong.of(System.nanoTime());
        res.status(status);
        res.header(HeaderNames.CONTENT_TYPE, contentType);
        res.header(HeaderNames.CACHE_CONTROL, "no-cache");
        res.header("x-accel-buffering", "no");
        droppedFields(status);
        OutputStream out = res.outputStream();
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                out.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                toClient(() -> out.write(b, off, len));
            }

            @Override
            public void flush() throws IOException {
                toClient(out::flush);
            }

            @Override
            public void close() throws IOException {
                toClient(out::close);
            }
        };
    }

    @FunctionalInterface
    private interface ClientWrite {
        void run() throws IOException;
    }

    /**
     * Runs {@code write} on the response stream: Helidon reports a client that went away as an unchecked exception,
     * and the stream writers (SSE sinks, heartbeats) handle a departed client as the {@link IOException} it is.
     */
    private static void toClient(ClientWrite write) throws IOException {
        try {
            write.run();
        } catch (RuntimeException e) {
            throw new IOException("client connection closed", e);
        }
    }

    private void droppedFields(int status) {
        if (status < 400) {
            trace.map(RequestTrace::notCarried).filter(names -> !names.isEmpty())
                    .ifPresent(names -> res.header(DROPPED_FIELDS_HEADER, headerValue(names)));
        }
    }

    /** The names as a header value: a client's field names are its own text, so only printable ASCII, and not without end. */
    static String headerValue(java.util.List<String> names) {
        String joined = names.stream().limit(MAX_DROPPED_NAMES)
                .map(n -> n.length() > MAX_NAME ? n.substring(0, MAX_NAME) : n)
                .map(n -> n.replaceAll("[^\\x20-\\x7e]", "?").replace(",", "?"))
                .collect(java.util.stream.Collectors.joining(", "));
        return names.size() > MAX_DROPPED_NAMES ? joined + ", ..." : joined;
    }

    @Override
    public boolean committed() {
        return committed;
    }

    @Override
    public Optional<RequestTrace> trace() {
        return trace;
    }

    @Override
    public void trace(RequestTrace t) {
        trace = Optional.of(t);
    }

    int status() {
        return status;
    }

    long startNanos() {
        return startNanos;
    }

    OptionalLong firstByteNanos() {
        return firstByteNanos;
    }
}
