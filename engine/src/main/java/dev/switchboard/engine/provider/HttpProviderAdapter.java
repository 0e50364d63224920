package dev.switchboard.engine.provider;

import dev.switchboard.engine.upstream.HttpCall;
import dev.switchboard.engine.upstream.UpstreamClient;
import dev.switchboard.engine.upstream.UpstreamFailure;
import dev.switchboard.engine.upstream.UpstreamIOException;
import dev.switchboard.engine.upstream.UpstreamResponse;
import dev.switchboard.model.ChatResponse;
import dev.switchboard.model.GatewayError;
import dev.switchboard.model.GatewayException;
import dev.switchboard.model.StreamEvent;
import dev.switchboard.wire.ToolNames;
import dev.switchboard.wire.sse.SseEvent;
import dev.switchboard.wire.sse.SseParser;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * A provider reached over HTTP, speaking the wire format its {@link Dialect} describes. Tool names and
 * call ids are rewritten to what the dialect's format accepts ({@link ToolNames}) before the call and
 * mapped back in the answer and in every stream event. Reads streams
 * event by event as they arrive (a buffer lent for each read, never the whole body) and turns every
 * failure into a classified {@link UpstreamFailure}.
 */
public final class HttpProviderAdapter implements ProviderAdapter {
    /** Error bodies are read only this far: enough for any provider's message. */
    private static final int MAX_ERROR_BODY = 64 * 1024;
    private static final int READ_BUFFER = 8 * 1024;
    /**
     * Read buffers lent for one read and given back: a stream waiting for its provider holds none (with thousands of
     * slow streams open, one each was 8 KiB per stream), and a busy one allocates none per read. Bounded: buffers
     * beyond it are left to the GC.
     */
    private static final ArrayBlockingQueue<byte[]> READ_BUFFERS = new ArrayBlockingQueue<>(64);

    private final Dialect dialect;
    private final UpstreamClient client;
    private final java.util.function.UnaryOperator<HttpCall> outgoing;

    public HttpProviderAdapter(Dialect dialect, UpstreamClient client) {
        this(dialect, client, java.util.function.UnaryOperator.identity());
    }

    /**
     * {@code outgoing} may add headers to every call just before it is sent (the trace context of the attempt's
     * span, when tracing is on); it must not touch the body or the credentials.
     */
    public HttpProviderAdapter(Dialect dialect, UpstreamClient client, java.util.function.UnaryOperator<HttpCall> outgoing) {
        this.dialect = dialect;
        this.client = client;
        this.outgoing = outgoing;
    }

    @Override
    public ChatResponse complete(Attempt original) {
        ToolNames names = ToolNames.of(original.request(), dialect.toolNames());
        Attempt attempt = original.withRequest(names.apply(original.request()));
        try (UpstreamResponse response = client.send(outgoing.apply(dialect.call(attempt, false)), attempt.provider().timeouts())) {
            failOnErrorStatus(response);
            byte[] body = read(response);
            try {
                return names.restore(dialect.response(attempt, body));
            } catch (GatewayException | IllegalArgumentException e) {
                throw ProviderAdapter.protocolError("unreadable answer: " + e.getMessage());
            }
        }
    }

    @Override
    public EventSource stream(Attempt original) {
        ToolNames names = ToolNames.of(original.request(), dialect.toolNames());
        Attempt attempt = original.withRequest(names.apply(original.request()));
        UpstreamResponse response = client.send(outgoing.apply(dialect.call(attempt, true)), attempt.provider().timeouts());
        try {
            failOnErrorStatus(response);
        } catch (RuntimeException e) {
            response.close();
            throw e;
        }
        return new SseEventSource(response, restoring(dialect.streamParser(attempt), names));
    }

    @Override
    public List<String> notCarried(Attempt attempt) {
        return dialect.notCarried(attempt);
    }

    /** {@code parser} with the client's tool names and ids put back into what it produces. */
    private static Dialect.StreamParser restoring(Dialect.StreamParser parser, ToolNames names) {
        if (names.isIdentity()) {
            return parser;
        }
        return Dialect.StreamParser.of((event, data) -> parser.onEvent(event, data).stream().map(names::restore).toList(),
                () -> parser.onEnd().stream().map(names::restore).toList());
    }

    private void failOnErrorStatus(UpstreamResponse response) {
        int status = response.status();
        if (status < 400) {
            return;
        }
        byte[] body;
        try {
            body = response.body().readNBytes(MAX_ERROR_BODY);
        } catch (IOException e) {
            body = new byte[0];
        }
        GatewayError error = dialect.error(status, body);
        // The translated status decides failover: Google refuses a bad key with a 400 its reader calls 401.
        throw UpstreamFailure.http(error.status(), error, retryAfter(response));
    }

    private static Optional<Duration> retryAfter(UpstreamResponse response) {
        return response.header("retry-after").flatMap(v -> {
            try {
                return Optional.of(Duration.ofSeconds(Long.parseLong(v.trim())));
            } catch (NumberFormatException e) {
                return Optional.empty(); // an HTTP date: not worth honouring inside a request's deadline
            }
        });
    }

    private static byte[] read(UpstreamResponse response) {
        try {
            return response.readAll();
        } catch (UpstreamIOException e) {
            throw e.failure();
        } catch (IOException e) {
            throw UpstreamFailure.of(UpstreamFailure.Kind.RESET, "connection closed by the provider");
        }
    }

    /** Pulls SSE bytes from the upstream and hands out canonical events one at a time. */
    private static final class SseEventSource implements EventSource {
        private final UpstreamResponse response;
        private final InputStream in;
        private final Dialect.StreamParser parser;
        private final SseParser sse = new SseParser();
        private final Deque<StreamEvent> ready = new ArrayDeque<>();
        /** The first byte of each read, waited for without a read buffer. */
        private final byte[] one = new byte[1];
        private boolean ended;
        private boolean finished;
        private RuntimeException failed;

        SseEventSource(UpstreamResponse response, Dialect.StreamParser parser) {
            this.response = response;
            this.in = response.body();
            this.parser = parser;
        }

        @Override
        public Optional<StreamEvent> next() {
            if (failed != null) {
                throw failed;
            }
            while (ready.isEmpty() && !ended) {
                readOnce();
            }
            StreamEvent event = ready.poll();
            if (event instanceof StreamEvent.MessageStop) {
                finished = true;
            }
            return Optional.ofNullable(event);
        }

        /**
         * Whether the next event can be had without waiting: parsed already, or its bytes already received
         * (they are parsed here, never waited for). That is what lets the client writes go out in bursts.
         */
        @Override
        public boolean hasBuffered() {
            if (!ready.isEmpty()) {
                return true;
            }
            if (ended || failed != null) {
                return false;
            }
            try {
                while (ready.isEmpty() && !ended && in.available() > 0) {
                    readOnce();
                }
            } catch (IOException e) {
                return false;
            } catch (RuntimeException e) {
                failed = e; // thrown by the next call to next(), which comes at once
                return true;
            }
            return !ready.isEmpty();
        }

        /**
         * One read from the upstream, parsed into {@link #ready}: the wait for the provider's next byte holds no
         * buffer; what has arrived with it is read at once into a lent one.
         */
        private void readOnce() {
            byte[] buffer = null;
            try {
                // through read(byte[], ...): the entity stream's one-byte read() ended the body early at a chunk's end,
                // and the connection was closed instead of kept
                int first = in.read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
                if (first < 0) {
                    ended = true;
                    for (SseEvent e : sse.finish()) {
                        ready.addAll(parser.onEvent(e.event(), e.data()));
                    }
                    ready.addAll(parser.onEnd());
                    return;
                }
                buffer = READ_BUFFERS.poll();
                if (buffer == null) {
                    buffer = new byte[READ_BUFFER];
                }
                buffer[0] = (byte) first;
                int available = in.available();
                int more = available > 0 ? in.read(buffer, 1, Math.min(available, buffer.length - 1)) : 0;
                for (SseEvent e : sse.feed(buffer, 0, 1 + Math.max(more, 0))) {
                    ready.addAll(parser.onEvent(e.event(), e.data()));
                }
            } catch (UpstreamIOException e) {
                throw e.failure();
            } catch (IOException e) {
                throw UpstreamFailure.of(UpstreamFailure.Kind.RESET, "connection closed by the provider");
            } catch (UpstreamFailure f) {
                throw f;
            } catch (RuntimeException e) {
                // an event the format's parser cannot read: the provider broke its own protocol
                throw ProviderAdapter.protocolError("unreadable stream event: " + e.getMessage());
            } finally {
                if (buffer != null) {
                    READ_BUFFERS.offer(buffer);
                }
            }
        }

        @Override
        public void close() {
            if (finished && !ended) {
                // Only the end of the body is left (a [DONE] line, the last chunk marker): reading it, here
                // and now, returns the connection to the pool instead of closing it. (It used to be read on a
                // separate thread; on a busy CPU that thread ran late, each late connection made the next
                // request open a new one, and the connections piled up by the thousand.)
                response.closeAfterEnd();
            } else {
                response.close();
            }
        }
    }
}
