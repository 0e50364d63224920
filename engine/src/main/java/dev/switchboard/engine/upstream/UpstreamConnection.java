package dev.switchboard.engine.upstream;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataWriter;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.common.socket.TlsSocket;
import io.helidon.common.tls.Tls;
import io.helidon.webclient.api.ClientConnection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import javax.net.ssl.SSLSocket;

/**
 * One HTTP/1.1 connection to an upstream, owned by an {@link UpstreamPool}: Helidon's client writes the
 * request and reads the response over it, and hands it back through {@link #releaseResource()} (the
 * response was read to its end: the pool may keep it) or {@link #closeResource()} (anything else).
 *
 * <p>It exists instead of Helidon's own connection cache for three reasons, each measured: that cache
 * parks one virtual thread per kept connection that wakes every 101 ms to look for a close (0.19 cores
 * for 1,024 idle connections, and a reused connection must first wait for that thread to let go); it drops
 * a dead kept connection without closing it (the socket stays in CLOSE-WAIT until a full GC); and it has
 * no idle expiry. Here the socket is a {@link SocketChannel}, so whether a kept connection is still open
 * is one non-blocking read when it is taken ({@link #stillOpen()}), and nothing runs while it waits.
 */
final class UpstreamConnection implements ClientConnection {
    private static final List<String> HTTP_1_1 = List.of("http/1.1");

    private final SocketChannel channel;
    private final HelidonSocket socket;
    private final DataReader reader;
    private final DataWriter writer;
    private final String id;
    private final UpstreamPool.Target target;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ByteBuffer probe = ByteBuffer.allocate(1);
    private int uses;
    private long idleSinceNanos;
    private volatile boolean writeFailed;

    private UpstreamConnection(SocketChannel channel, HelidonSocket socket, String id, UpstreamPool.Target target) {
        this.channel = channel;
        this.socket = socket;
        this.id = id;
        this.target = target;
        this.reader = DataReader.create(socket);
        this.writer = new SocketWriter(this, socket);
    }

    /** Opens a new connection (TCP, then TLS for {@code https}); throws what the connect threw. */
    static UpstreamConnection open(UpstreamPool.Target target, Duration connectTimeout, Supplier<Tls> tls) {
        SocketChannel channel = null;
        try {
            channel = SocketChannel.open();
            InetSocketAddress address = new InetSocketAddress(target.host(), target.port());
            channel.socket().connect(address, (int) Math.min(Integer.MAX_VALUE, connectTimeout.toMillis()));
            channel.socket().setTcpNoDelay(true);
            String id = "0x" + Integer.toHexString(System.identityHashCode(channel));
            HelidonSocket socket;
            if (target.tls()) {
                // The host as the base URL names it is what the certificate must match: a resolved address would
                // give its host name by a reverse lookup (an IP in the URL was checked against "localhost").
                SSLSocket ssl = tls.get().createSocket(HTTP_1_1, channel.socket(),
                        InetSocketAddress.createUnresolved(target.host(), target.port()));
                ssl.startHandshake();
                socket = TlsSocket.client(ssl, id);
            } else {
                socket = new PlainUpstreamSocket(channel.socket(), id);
            }
            return new UpstreamConnection(channel, socket, id, target);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    UpstreamPool.Target target() {
        return target;
    }

    /** Whether this connection carried a request before (a kept connection may have gone stale). */
    boolean reused() {
        return uses > 1;
    }

    void taken() {
        uses++;
        writeFailed = false;
    }

    /** Whether writing the current request failed (the provider had closed or reset the connection). */
    boolean writeFailed() {
        return writeFailed;
    }

    void idleSince(long nanos) {
        idleSinceNanos = nanos;
    }

    long idleSinceNanos() {
        return idleSinceNanos;
    }

    /**
     * Whether a kept connection can carry another request: a non-blocking read finds nothing to read. A
     * closed or reset connection reads end-of-stream or fails; bytes nobody asked for mean the stream is
     * out of step. Either way the connection is closed. Only called while no request uses it.
     */
    boolean stillOpen() {
        if (closed.get()) {
            return false;
        }
        boolean open;
        try {
            synchronized (channel.blockingLock()) {
                channel.configureBlocking(false);
                try {
                    probe.clear();
                    open = channel.read(probe) == 0;
                } finally {
                    channel.configureBlocking(true);
                }
            }
        } catch (IOException | RuntimeException e) {
            open = false;
        }
        if (!open) {
            closeResource();
        }
        return open;
    }

    boolean isClosed() {
        return closed.get();
    }

    @Override
    public DataReader reader() {
        return reader;
    }

    @Override
    public DataWriter writer() {
        return writer;
    }

    @Override
    public String channelId() {
        return id;
    }

    @Override
    public HelidonSocket helidonSocket() {
        return socket;
    }

    @Override
    public void readTimeout(Duration readTimeout) {
        try {
            channel.socket().setSoTimeout((int) Math.min(Integer.MAX_VALUE, readTimeout.toMillis()));
        } catch (SocketException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public boolean isConnected() {
        return !closed.get() && channel.isOpen();
    }

    @Override
    public boolean allowExpectContinue() {
        return false;
    }

    /** The response was read to its end: back to the pool, which keeps it or closes it. */
    @Override
    public void releaseResource() {
        if (!closed.get()) {
            target.pool().giveBack(this);
        }
    }

    /** Closes the socket now (our end: no CLOSE-WAIT is left behind). Idempotent. */
    @Override
    public void closeResource() {
        if (closed.compareAndSet(false, true)) {
            // the raw channel, not the TLS socket: a close_notify to a peer that is gone could block
            closeQuietly(channel);
            target.pool().closed(this);
        }
    }

    private static void closeQuietly(SocketChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // already closed
            }
        }
    }

    /** Writes straight to the socket (Helidon hands over the whole request in one buffer) and notes a failed write. */
    private record SocketWriter(UpstreamConnection connection, HelidonSocket socket) implements DataWriter {
        @Override
        public void write(BufferData... buffers) {
            for (BufferData b : buffers) {
                write(b);
            }
        }

        @Override
        public void write(BufferData buffer) {
            try {
                socket.write(buffer);
            } catch (RuntimeException e) {
                connection.writeFailed = true;
                throw e;
            }
        }

        @Override
        public void writeNow(BufferData... buffers) {
            write(buffers);
        }

        @Override
        public void writeNow(BufferData buffer) {
            write(buffer);
        }
    }
}
