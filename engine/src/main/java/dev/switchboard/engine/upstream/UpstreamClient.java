package dev.switchboard.engine.upstream;

import dev.switchboard.engine.catalog.Timeouts;
import io.helidon.common.LazyValue;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.tls.Tls;
import io.helidon.http.HeaderNames;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.api.Proxy;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientRequest;
import io.helidon.webclient.http1.Http1ClientResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.net.ssl.SSLHandshakeException;

/**
 * The only place where the gateway talks HTTP to upstream providers (Helidon's HTTP/1.1 client: half the CPU
 * of the JDK client, measured) over connections from the gateway's own {@link UpstreamPool} (bounded per
 * target, idle ones expire, no thread per kept connection). Deadlines of each attempt are enforced by the
 * {@link Watchdog}, so a hung provider costs at most its configured time.
 *
 * <p>A request whose kept connection turns out to be dead before any of the answer came back (the
 * provider closed it while it sat in the pool, or reset it as the request went out) is sent once more on
 * a fresh connection to the same target. That is not a failed attempt: the provider never saw the
 * request. Any failure closes the connection at once, so a reset leaves no socket in CLOSE-WAIT.
 *
 * <p>Failures are thrown as {@link UpstreamFailure} classified for the failover loop; reads of a body
 * throw {@link UpstreamIOException} with the same classification.
 */
public final class UpstreamClient implements AutoCloseable {
    /** How often kept connections are checked for expiry and for a close by the provider. */
    private static final Duration SWEEP_EVERY = Duration.ofSeconds(2);

    private final Watchdog watchdog;
    private final Http1Client http;
    private final UpstreamPool pool;
    private final Supplier<Tls> tls;
    private final ScheduledExecutorService sweeper;

    public UpstreamClient(Watchdog watchdog) {
        this(watchdog, UpstreamPool.Settings.DEFAULTS);
    }

    public UpstreamClient(Watchdog watchdog, UpstreamPool.Settings poolSettings) {
        // The JDK's default TLS set-up (its trust store read and parsed) is made on the first https connection, not
        // here: it was a sixth of a cold start's CPU, and a gateway whose providers are all plain http never needs it.
        this(watchdog, poolSettings, LazyValue.create(() -> Tls.builder().build()));
    }

    /** With the TLS set-up that {@code https} connections use, asked for on the first one (tests trust their own). */
    UpstreamClient(Watchdog watchdog, UpstreamPool.Settings poolSettings, Supplier<Tls> tls) {
        this.watchdog = watchdog;
        this.http = Http1Client.builder()
                .followRedirects(false)
                // no per-request system proxy discovery: upstreams are reached directly
                .proxy(Proxy.noProxy())
                .sendExpectContinue(false)
                // Every request goes over a connection of the pool, which makes its own TLS sockets: the client's TLS
                // is never used, and a disabled one costs nothing to build (an enabled default one reads the trust store).
                .tls(Tls.builder().enabled(false).build())
                .build();
        this.tls = tls;
        this.pool = new UpstreamPool(poolSettings, tls);
        this.sweeper = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("switchboard-upstream-sweeper").factory());
        sweeper.scheduleWithFixedDelay(pool::sweep, SWEEP_EVERY.toMillis(), SWEEP_EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Makes the TLS set-up of {@code https} connections now, on a thread of its own, so that the first request to an
     * {@code https} provider does not wait for it; returns at once. A failure is left to that first connection, which
     * meets it again and reports it.
     */
    public void prepareTlsInBackground() {
        Thread.ofPlatform().daemon().name("switchboard-tls-setup").start(() -> {
            try {
                tls.get();
            } catch (RuntimeException e) {
                // see above
            }
        });
    }

    /** The connection pool (for metrics and tests). */
    public UpstreamPool pool() {
        return pool;
    }

    /**
     * Sends the call and waits for the response headers. Non-2xx responses are returned, not thrown: the
     * provider adapter knows how to read its error body.
     */
    public UpstreamResponse send(HttpCall call, Timeouts timeouts) {
        // A non-streamed answer's headers come only when the whole answer is generated, which for a
        // reasoning model can take minutes: there the first-byte wait is bounded by the total timeout.
        Duration firstByte = call.streaming() ? timeouts.firstByte() : timeouts.total();
        AttemptTimer timer = watchdog.start(firstByte, timeouts.idle(), timeouts.total());
        Thread caller = Thread.currentThread();
        timer.onExpiry(caller::interrupt);
        HttpClientResponse response;
        UpstreamConnection connection;
        try {
            UpstreamPool.Target target = pool.target(call.uri());
            connection = pool.take(target, timeouts.connect());
            try {
                response = submit(call, connection);
            } catch (RuntimeException e) {
                connection.closeResource();
                if (!connection.reused() || !staleConnection(e, connection.writeFailed(), timer)) {
                    throw e;
                }
                connection = pool.fresh(target, timeouts.connect());
                try {
                    response = submit(call, connection);
                } catch (RuntimeException again) {
                    connection.closeResource();
                    throw again;
                }
            }
        } catch (RuntimeException e) {
            timer.onExpiry(() -> { });
            Thread.interrupted();
            timer.finish();
            throw classify(e, timer);
        }
        timer.onExpiry(response::close);
        // an interrupt aimed at the header wait may land just after it ended
        Thread.interrupted();
        timer.activity();
        return new Response(response, connection, timer);
    }

    private Http1ClientResponse submit(HttpCall call, UpstreamConnection connection) {
        Http1ClientRequest request = http.post()
                .uri(call.uri())
                .connection(connection)
                // No socket timeout: the watchdog enforces every deadline (it interrupts the header wait and closes
                // the response being read). A socket timeout as well made every read that waited a timed park, each
                // one a timer scheduled and cancelled in the JDK's delay scheduler: 5-10% of a request's CPU, measured
                // at 32 concurrent requests on one core. closeAfterEnd sets a short one for its last read, which
                // comes after the watchdog let go; this resets it on a kept connection.
                .readTimeout(Duration.ZERO)
                .header(HeaderNames.CONTENT_TYPE, "application/json")
                .header(HeaderNames.ACCEPT, call.streaming() ? "text/event-stream" : "application/json");
        call.headers().forEach((k, v) -> request.header(HeaderNames.create(k), v));
        return request.submit(call.body());
    }

    /**
     * Whether a failure of a kept connection before the status line means the connection had gone stale, so
     * that the provider never took the request: writing the request failed, or the connection ended cleanly
     * (a close, no reset) before any byte of the answer, as when a provider's keep-alive timer closes it
     * just as the request goes out. A reset after the request went out is the provider failing this request
     * (it read it), and a deadline that ran out is a slow provider: both stay failed attempts.
     */
    static boolean staleConnection(Throwable e, boolean writeFailed, AttemptTimer timer) {
        if (timer.expired() != AttemptTimer.Expiry.NONE) {
            return false;
        }
        if (writeFailed) {
            return true;
        }
        boolean cleanEnd = false;
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SocketException || t instanceof InterruptedIOException) {
                return false;
            }
            cleanEnd |= t instanceof DataReader.InsufficientDataAvailableException;
        }
        return cleanEnd;
    }

    static UpstreamFailure classify(Throwable e, AttemptTimer timer) {
        switch (timer.expired()) {
            case FIRST_BYTE -> {
                return UpstreamFailure.of(UpstreamFailure.Kind.FIRST_BYTE_TIMEOUT, "no response within the first-byte timeout");
            }
            case IDLE -> {
                return UpstreamFailure.of(UpstreamFailure.Kind.IDLE_TIMEOUT, "the response stalled longer than the idle timeout");
            }
            case TOTAL -> {
                return UpstreamFailure.of(UpstreamFailure.Kind.TOTAL_TIMEOUT, "the attempt exceeded its total timeout");
            }
            case NONE -> { }
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (outOfDescriptors(t)) {
                return UpstreamFailure.outOfDescriptors();
            }
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException || t instanceof UnknownHostException) {
                return UpstreamFailure.of(UpstreamFailure.Kind.CONNECT, "could not connect");
            }
            if (t instanceof SSLHandshakeException) {
                // before any byte of the request: the provider's certificate was refused, or TLS could not be agreed
                return UpstreamFailure.of(UpstreamFailure.Kind.CONNECT, "the TLS handshake with the provider failed: "
                        + t.getMessage());
            }
            if (t instanceof SocketTimeoutException) {
                return UpstreamFailure.of(UpstreamFailure.Kind.FIRST_BYTE_TIMEOUT, "socket read timed out");
            }
            if (t instanceof SocketException || t instanceof InterruptedIOException
                    // Helidon's reader reports the end of the connection (a close before or within the answer) so
                    || t instanceof DataReader.InsufficientDataAvailableException) {
                return UpstreamFailure.of(UpstreamFailure.Kind.RESET, "connection closed by the provider");
            }
        }
        if (e instanceof UncheckedIOException || e instanceof IllegalStateException) {
            // Helidon reports a connection closed before the status line this way
            return UpstreamFailure.of(UpstreamFailure.Kind.RESET, "connection closed by the provider");
        }
        return UpstreamFailure.of(UpstreamFailure.Kind.PROTOCOL, "unexpected failure talking to the provider: "
                + e.getClass().getSimpleName());
    }

    /** EMFILE / ENFILE, as the JDK words them ("Too many open files", "... in system"). */
    static boolean outOfDescriptors(Throwable t) {
        return t instanceof IOException && t.getMessage() != null && t.getMessage().contains("Too many open files");
    }

    @Override
    public void close() {
        sweeper.shutdownNow();
        pool.close();
    }

    private static final class Response implements UpstreamResponse {
        /** How long the rest of a finished stream may take to arrive before its connection is closed instead. */
        private static final Duration END_GRACE = Duration.ofMillis(100);
        private static final int MAX_END_BYTES = 64 * 1024;

        private final HttpClientResponse response;
        private final UpstreamConnection connection;
        private final AttemptTimer timer;
        private final InputStream raw;
        private final InputStream body;

        Response(HttpClientResponse response, UpstreamConnection connection, AttemptTimer timer) {
            this.response = response;
            this.connection = connection;
            this.timer = timer;
            this.raw = response.inputStream();
            this.body = new TimedStream(raw, timer, () -> connection.reader().available());
        }

        @Override
        public int status() {
            return response.status().code();
        }

        @Override
        public Optional<String> header(String name) {
            return response.headers().first(HeaderNames.create(name));
        }

        @Override
        public InputStream body() {
            return body;
        }

        @Override
        public void closeAfterEnd() {
            timer.finish();
            try {
                // The provider sends its end marker ([DONE], the last chunk) right after the last event, so
                // it is normally already here; reading it is what lets the connection be kept. A provider
                // that lingers loses the connection instead of holding up this thread.
                connection.readTimeout(END_GRACE);
                InputStream in = raw;
                byte[] skip = new byte[4096];
                int total = 0;
                int n;
                while (total < MAX_END_BYTES && (n = in.read(skip)) >= 0) {
                    total += n;
                }
            } catch (IOException | RuntimeException e) {
                // the provider closed first, or lingered: the connection is closed below
            }
            close();
        }

        @Override
        public void close() {
            timer.finish();
            try {
                response.close();
            } catch (RuntimeException ignored) {
                // closing a connection the provider already dropped
            }
        }
    }

    /** Reports activity to the timer and turns read failures into classified {@link UpstreamIOException}s. */
    private static final class TimedStream extends InputStream {
        private final InputStream in;
        private final AttemptTimer timer;
        private final java.util.function.IntSupplier received;

        TimedStream(InputStream in, AttemptTimer timer, java.util.function.IntSupplier received) {
            this.in = in;
            this.timer = timer;
            this.received = received;
        }

        /** Bytes already received from the provider and not yet read: readable without waiting on the network. */
        @Override
        public int available() throws IOException {
            return Math.max(in.available(), received.getAsInt());
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                int n = in.read(b, off, len);
                if (n > 0) {
                    timer.activity();
                }
                return n;
            } catch (IOException | RuntimeException e) {
                throw new UpstreamIOException(classify(e, timer));
            }
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
