package dev.switchboard.engine.upstream;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.common.socket.PeerInfo;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.security.Principal;
import java.security.cert.Certificate;
import java.util.Arrays;
import java.util.Optional;

/**
 * A plain (not TLS) upstream connection's socket as Helidon's HTTP/1.1 client reads it, without a read buffer of its
 * own. Helidon's {@code PlainSocket} keeps an 8 KiB buffer per socket for its whole life, and a stream that waits for
 * its provider sits in a read on it: with thousands of slow streams open that was 8 KiB each. Here the wait is a
 * one-byte read, and what has arrived is then read into an array of exactly its size (which the reader keeps anyway:
 * {@code PlainSocket} copies out of its buffer). The idle monitoring of Helidon's connection cache ({@link #idle()})
 * is not needed: {@link UpstreamPool} checks a kept connection itself.
 */
final class PlainUpstreamSocket implements HelidonSocket {
    /** The most read at once (what {@code PlainSocket} reads at most). */
    static final int MAX_READ = 8 * 1024;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final String id;
    private volatile boolean ended;

    PlainUpstreamSocket(Socket socket, String id) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.id = id;
    }

    /** The bytes that have arrived, waiting for at least one; null at the end of the stream. */
    @Override
    public byte[] get() {
        try {
            int available = in.available();
            if (available > 0) {
                byte[] bytes = new byte[Math.min(available, MAX_READ)];
                return exactly(bytes, 0, in.read(bytes));
            }
            int first = in.read();
            if (first < 0) {
                return exactly(null, 0, -1);
            }
            byte[] bytes = new byte[1 + Math.min(in.available(), MAX_READ - 1)];
            bytes[0] = (byte) first;
            return bytes.length == 1 ? bytes : exactly(bytes, 1, in.read(bytes, 1, bytes.length - 1));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code bytes} holding {@code offset} bytes and then {@code n} read into it; null when the stream ended there. */
    private byte[] exactly(byte[] bytes, int offset, int n) {
        if (n < 0 && offset == 0) {
            ended = true;
            return null;
        }
        int length = offset + Math.max(n, 0);
        return length == bytes.length ? bytes : Arrays.copyOf(bytes, length);
    }

    @Override
    public int read(BufferData buffer) {
        int n = buffer.readFrom(in);
        if (n < 0) {
            ended = true;
        }
        return n;
    }

    @Override
    public void write(BufferData buffer) {
        buffer.writeTo(out);
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void idle() {
        // nothing watches a kept connection: UpstreamPool checks it when it is taken
    }

    @Override
    public boolean isConnected() {
        return !ended && !socket.isClosed();
    }

    @Override
    public PeerInfo remotePeer() {
        return new Peer(socket.getRemoteSocketAddress());
    }

    @Override
    public PeerInfo localPeer() {
        return new Peer(socket.getLocalSocketAddress());
    }

    @Override
    public boolean isSecure() {
        return false;
    }

    @Override
    public String socketId() {
        return id;
    }

    @Override
    public String childSocketId() {
        return "client";
    }

    private record Peer(SocketAddress address) implements PeerInfo {
        @Override
        public String host() {
            return address instanceof InetSocketAddress a ? a.getHostString() : String.valueOf(address);
        }

        @Override
        public int port() {
            return address instanceof InetSocketAddress a ? a.getPort() : -1;
        }

        @Override
        public Optional<Principal> tlsPrincipal() {
            return Optional.empty();
        }

        @Override
        public Optional<Certificate[]> tlsCertificates() {
            return Optional.empty();
        }
    }
}
