package dev.switchboard.engine.upstream;

import dev.switchboard.engine.catalog.Timeouts;
import io.helidon.http.HeaderNames;
import io.helidon.webclient.api.HttpClientRequest;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.api.Proxy;
import io.helidon.webclient.api.WebClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The only place where the gateway talks HTTP to upstream providers (Helidon WebClient: half the CPU of
 * the JDK client, measured). One pooled client per distinct connect timeout; deadlines of each attempt are
 * enforced by the {@link Watchdog}, so a hung provider costs at most its configured time.
 *
 * <p>Failures are thrown as {@link UpstreamFailure} classified for the failover loop; reads of a body
 * throw {@link UpstreamIOException} with the same classification.
 */
public final class UpstreamClient implements AutoCloseable {
    private final Watchdog watchdog;
    private final Map<Duration, WebClient> clients = new ConcurrentHashMap<>();

    public UpstreamClient(Watchdog watchdog) {
        this.watchdog = watchdog;
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
        try {
            HttpClientRequest request = client(timeouts.connect()).post()
                    .uri(call.uri())
                    // the watchdog is the authority; the socket timeout is only a safety net behind it
                    .readTimeout(max(firstByte, timeouts.idle()).plusSeconds(5))
                    .header(HeaderNames.CONTENT_TYPE, "application/json")
                    .header(HeaderNames.ACCEPT, call.streaming() ? "text/event-stream" : "application/json");
            call.headers().forEach((k, v) -> request.header(HeaderNames.create(k), v));
            response = request.submit(call.body());
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
        return new Response(response, timer);
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private WebClient client(Duration connectTimeout) {
        return clients.computeIfAbsent(connectTimeout, t -> WebClient.builder()
                .socketOptions(o -> o.connectTimeout(t).tcpNoDelay(true))
                .connectionCacheSize(1024)
                .followRedirects(false)
                // no per-request system proxy discovery: upstreams are reached directly
                .proxy(Proxy.noProxy())
                .build());
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
            if (t instanceof ConnectException || t instanceof UnknownHostException) {
                return UpstreamFailure.of(UpstreamFailure.Kind.CONNECT, "could not connect");
            }
            if (t instanceof SocketTimeoutException) {
                return UpstreamFailure.of(UpstreamFailure.Kind.FIRST_BYTE_TIMEOUT, "socket read timed out");
            }
            if (t instanceof SocketException || t instanceof InterruptedIOException) {
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

    @Override
    public void close() {
        clients.clear();
    }

    private static final class Response implements UpstreamResponse {
        private final HttpClientResponse response;
        private final AttemptTimer timer;
        private final InputStream body;

        Response(HttpClientResponse response, AttemptTimer timer) {
            this.response = response;
            this.timer = timer;
            this.body = new TimedStream(response.inputStream(), timer);
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

        TimedStream(InputStream in, AttemptTimer timer) {
            this.in = in;
            this.timer = timer;
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
