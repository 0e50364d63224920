package dev.switchboard.server.api;

import dev.switchboard.engine.idempotency.StoredAnswer;
import dev.switchboard.engine.pipeline.RequestTrace;
import dev.switchboard.server.http.Exchange;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * An {@link Exchange} that passes everything through and keeps a copy of the answer (status, content type,
 * headers, every body byte), so that the answer of a request with an {@code Idempotency-Key} can be replayed.
 * A write to the client that fails (the client left) marks the copy incomplete.
 */
final class RecordingExchange implements Exchange {
    private final Exchange delegate;
    private final List<StoredAnswer.Header> headers = new ArrayList<>();
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private int status;
    private String contentType = "";
    private boolean streamed;
    private volatile boolean broken;

    RecordingExchange(Exchange delegate) {
        this.delegate = delegate;
    }

    /** The copy of the answer, when one was given completely with {@code 200}. */
    Optional<StoredAnswer> completeAnswer() {
        if (status != 200 || broken) {
            return Optional.empty();
        }
        synchronized (body) {
            return Optional.of(new StoredAnswer(delegate.requestId(), status, contentType, streamed, headers, body.toByteArray()));
        }
    }

    @Override
    public String method() {
        return delegate.method();
    }

    @Override
    public String path() {
        return delegate.path();
    }

    @Override
    public Optional<String> header(String name) {
        return delegate.header(name);
    }

    @Override
    public java.util.List<String> headers(String name) {
        return delegate.headers(name);
    }

    @Override
    public Optional<String> query(String name) {
        return delegate.query(name);
    }

    @Override
    public String pathParam(String name) {
        return delegate.pathParam(name);
    }

    @Override
    public byte[] body() {
        return delegate.body();
    }

    @Override
    public String remoteAddress() {
        return delegate.remoteAddress();
    }

    @Override
    public String requestId() {
        return delegate.requestId();
    }

    @Override
    public void header(String name, String value) {
        String lower = name.toLowerCase(Locale.ROOT);
        // the edge's own per-request headers belong to each request, not to the answer; so does where the caller
        // stood against its rate limits at the time
        if (!lower.equals("x-request-id") && !lower.startsWith("access-control-") && !lower.equals("vary")
                && !lower.startsWith("x-ratelimit-") && !lower.startsWith("anthropic-ratelimit-")) {
            headers.add(new StoredAnswer.Header(name, value));
        }
        delegate.header(name, value);
    }

    @Override
    public void respond(int status, String contentType, byte[] body) {
        this.status = status;
        this.contentType = contentType;
        synchronized (this.body) {
            this.body.writeBytes(body);
        }
        delegate.respond(status, contentType, body);
    }

    @Override
    public OutputStream openStream(int status, String contentType) {
        this.status = status;
        this.contentType = contentType;
        this.streamed = true;
        OutputStream out = delegate.openStream(status, contentType);
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                try {
                    out.write(b, off, len);
                } catch (IOException | RuntimeException e) {
                    broken = true;
                    throw e;
                }
                synchronized (body) {
                    body.write(b, off, len);
                }
            }

            @Override
            public void flush() throws IOException {
                try {
                    out.flush();
                } catch (IOException | RuntimeException e) {
                    broken = true;
                    throw e;
                }
            }

            @Override
            public void close() throws IOException {
                try {
                    out.close();
                } catch (IOException | RuntimeException e) {
                    broken = true;
                    throw e;
                }
            }
        };
    }

    @Override
    public boolean committed() {
        return delegate.committed();
    }

    @Override
    public void beforeCommit(Runnable hook) {
        delegate.beforeCommit(hook);
    }

    @Override
    public Optional<RequestTrace> trace() {
        return delegate.trace();
    }

    @Override
    public void trace(RequestTrace trace) {
        delegate.trace(trace);
    }
}
