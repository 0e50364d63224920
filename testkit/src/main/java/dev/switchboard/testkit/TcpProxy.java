package dev.switchboard.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay on a free loopback port in front of a server (PostgreSQL, Redis), which a test cuts ({@link #cut()}:
 * the port refuses and every relayed connection is closed) and restores ({@link #restore()}: the same port again),
 * to see what the gateway does while a dependency is unreachable, without touching the machine's real servers.
 */
public final class TcpProxy implements AutoCloseable {
    private final int port;
    private final String targetHost;
    private final int targetPort;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile ServerSocket listener;

    private TcpProxy(int port, String targetHost, int targetPort) {
        this.port = port;
        this.targetHost = targetHost;
        this.targetPort = targetPort;
    }

    /** Starts relaying {@code 127.0.0.1:<free port>} to {@code targetHost:targetPort}. */
    public static TcpProxy start(String targetHost, int targetPort) {
        TcpProxy proxy = new TcpProxy(PortSupport.freeLoopbackPort(), targetHost, targetPort);
        proxy.restore();
        return proxy;
    }

    public int port() {
        return port;
    }

    /** Listens again on the same port (after {@link #cut()}). */
    public synchronized void restore() {
        if (listener != null) {
            return;
        }
        try {
            ServerSocket s = new ServerSocket();
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            listener = s;
            Thread.ofVirtual().name("tcp-proxy-accept-" + port).start(() -> accept(s));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen again on port " + port, e);
        }
    }

    /** Stops listening and closes every relayed connection: the target looks down. */
    public synchronized void cut() {
        ServerSocket s = listener;
        listener = null;
        if (s != null) {
            closeQuietly(s);
        }
        open.forEach(TcpProxy::closeQuietly);
        open.clear();
    }

    private void accept(ServerSocket s) {
        while (!s.isClosed()) {
            try {
                Socket client = s.accept();
                Socket server;
                try {
                    server = new Socket(targetHost, targetPort);
                } catch (IOException e) {
                    closeQuietly(client);
                    continue;
                }
                open.add(client);
                open.add(server);
                Thread.ofVirtual().start(() -> pipe(client, server));
                Thread.ofVirtual().start(() -> pipe(server, client));
            } catch (IOException e) {
                return; // cut
            }
        }
    }

    private void pipe(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // either side closed, or the proxy was cut
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            open.remove(from);
            open.remove(to);
        }
    }

    private static void closeQuietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() {
        cut();
    }
}
