package dev.switchboard.server.http;

import io.helidon.common.buffers.BufferData;
import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.http.Status;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http1.Http1ConnectionListener;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounds the time a client may take to send its header block. Helidon SE reads the headers after the request line
 * with no overall deadline (its socket read timeout bounds each read, so a client dripping a byte now and then keeps
 * the connection and its thread for as long as it likes, up to the header size limit), and its idle-connection check
 * interrupts a connection only while it waits for a request line. This listener is told when a request line has
 * arrived ({@link #prologue}) and when its headers have ({@link #headers}, or a response went out: {@link #status});
 * a timer closes every connection whose headers are still incomplete {@code timeout} after its request line, after
 * writing a 408 in the envelope of the path's format (the connection is the server's to write on then: its own thread
 * is blocked reading).
 *
 * <p>Registered on Helidon's HTTP/1 configuration as both a receive and a send listener.
 */
final class HeaderDeadline implements Http1ConnectionListener, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HeaderDeadline.class);

    private record Pending(String path, long deadlineNanos) {
    }

    private final Duration timeout;
    private final Function<String, byte[]> errorFor;
    private final Map<ConnectionContext, Pending> pending = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "header-deadline");
        t.setDaemon(true);
        return t;
    });

    /**
     * @param errorFor the 408 body for a request path, in that path's format
     * @param every    how often the deadlines are looked at
     */
    HeaderDeadline(Duration timeout, Function<String, byte[]> errorFor, Duration every) {
        this.timeout = timeout;
        this.errorFor = errorFor;
        timer.scheduleWithFixedDelay(this::expire, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void prologue(ConnectionContext ctx, HttpPrologue prologue) {
        pending.put(ctx, new Pending(prologue.uriPath().path(), System.nanoTime() + timeout.toNanos()));
    }

    @Override
    public void headers(ConnectionContext ctx, Headers headers) {
        pending.remove(ctx);
    }

    @Override
    public void status(ConnectionContext ctx, Status status) {
        pending.remove(ctx);
    }

    /** How many connections are reading their headers now (for tests and metrics). */
    int waiting() {
        return pending.size();
    }

    private void expire() {
        long now = System.nanoTime();
        pending.forEach((ctx, p) -> {
            if (now - p.deadlineNanos() < 0 || !pending.remove(ctx, p)) {
                return;
            }
            LOG.atInfo().addKeyValue("path", p.path()).addKeyValue("timeout_ms", timeout.toMillis())
                    .log("request headers did not arrive in time; connection closed");
            try {
                byte[] body = errorFor.apply(p.path());
                byte[] head = ("HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\nconnection: close\r\n"
                        + "content-length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
                ctx.serverSocket().write(BufferData.create(BufferData.create(head), BufferData.create(body)));
            } catch (RuntimeException e) {
                // the client is gone already; closing is all that is left
            }
            try {
                ctx.serverSocket().close();
            } catch (RuntimeException e) {
                // closed meanwhile
            }
        });
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
