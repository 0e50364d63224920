package dev.switchboard.server.api;

import dev.switchboard.engine.pipeline.RequestTrace;
import dev.switchboard.server.http.Exchange;
import java.util.Optional;

/**
 * The part of an exchange the streaming tests do not look at: a {@code POST} to {@code path} with no
 * headers, query or body, whose answer must be streamed. A test's subclass gives {@link #openStream}, which
 * records what was written, and says from when the answer counts as committed.
 */
abstract class StreamedExchangeSupport implements Exchange {
    private final String path;
    private boolean opened;

    StreamedExchangeSupport(String path) {
        this.path = path;
    }

    /** Marks the answer as begun; a subclass's {@link #openStream} calls it. */
    final void opened() {
        opened = true;
    }

    @Override public String method() { return "POST"; }
    @Override public String path() { return path; }
    @Override public Optional<String> header(String name) { return Optional.empty(); }
    @Override public Optional<String> query(String name) { return Optional.empty(); }
    @Override public String pathParam(String name) { return ""; }
    @Override public byte[] body() { return new byte[0]; }
    @Override public String requestId() { return "req_test"; }
    @Override public void header(String name, String value) { }
    @Override public void respond(int status, String contentType, byte[] body) { throw new AssertionError("the answer was to be streamed"); }
    @Override public boolean committed() { return opened; }
    @Override public void beforeCommit(Runnable hook) { throw new UnsupportedOperationException("no hooks in this test"); }
    @Override public Optional<RequestTrace> trace() { return Optional.empty(); }
    @Override public void trace(RequestTrace trace) { }
}
