package dev.switchboard.testkit;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A minimal HTTP/1.1 server on 127.0.0.1: one virtual thread per connection, keep-alive, requests framed
 * by {@code Content-Length} or chunked coding.
 *
 * <p>Raw sockets on purpose: the fake upstream must produce faults a framework server hides or repairs,
 * namely a real TCP reset ({@code SO_LINGER 0} then close), a connection that never answers, and a
 * response cut mid-way. Owning the socket makes those one-liners.
 */
final class RawHttpServer implements AutoCloseable {

    /** Answers one request; see {@link RawExchange} for what it must do. */
    @FunctionalInterface
    interface Handler {
        void handle(RecordedRequest request, RawExchange exchange) throws IOException;
    }

    private final ServerSocket serverSocket;
    private final Handler handler;
    private final ExecutorService connections = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("fake-upstream-conn-", 0).factory());
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;
    /** When positive, a kept connection with no next request within this many ms is closed (FIN). */
    private volatile int idleCloseMillis;
    /** When set, the second and later requests on a connection are met by a close (FIN) before any answer. */
    private volatile boolean dropReusedConnections;

    private RawHttpServer(ServerSocket serverSocket, Handler handler) {
        this.serverSocket = serverSocket;
        this.handler = handler;
    }

    /** Binds a free port on 127.0.0.1 and starts accepting. */
    static RawHttpServer start(Handler handler) {
        try {
            InetAddress loopback = InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
            RawHttpServer server = new RawHttpServer(new ServerSocket(0, 512, loopback), handler);
            Thread.ofVirtual().name("fake-upstream-accept-" + server.port()).start(server::acceptLoop);
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind the fake upstream", e);
        }
    }

    int port() {
        return serverSocket.getLocalPort();
    }

    /** Closes kept connections that stay idle longer than {@code millis} (0: keep them as long as the client does). */
    void closeIdleAfter(int millis) {
        this.idleCloseMillis = millis;
    }

    /** Meets every request that arrives on a kept (already used) connection with a close before any answer. */
    void dropReusedConnections(boolean drop) {
        this.dropReusedConnections = drop;
    }

    /** Stops accepting and ends every connection now, including hung and sleeping ones. */
    @Override
    public void close() {
        closed = true;
        try {
            serverSocket.close();
        } catch (IOException e) {
            // nothing left to release
        }
        for (Socket socket : open) {
            closeQuietly(socket);
        }
        connections.shutdownNow(); // interrupts scripted delays
        try {
            connections.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket socket = serverSocket.accept();
                open.add(socket);
                if (closed) { // close() may have run between accept and add
                    closeQuietly(socket);
                    return;
                }
                connections.execute(() -> serve(socket));
            } catch (IOException | java.util.concurrent.RejectedExecutionException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            socket.setTcpNoDelay(true); // SSE chunks must leave at once, not wait for Nagle
            InputStream in = new BufferedInputStream(socket.getInputStream());
            OutputStream out = new BufferedOutputStream(socket.getOutputStream());
            int served = 0;
            while (!closed) {
                Optional<RecordedRequest> next;
                socket.setSoTimeout(served > 0 ? idleCloseMillis : 0);
                try {
                    next = HttpRequestReader.read(in, out);
                } catch (HttpRequestReader.MalformedRequestException e) {
                    writePlain(out, 400, "Bad Request", e.getMessage());
                    return;
                } catch (java.net.SocketTimeoutException idle) {
                    return; // an idle kept connection: closed as a provider's keep-alive timeout would
                }
                socket.setSoTimeout(0);
                if (next.isEmpty()) {
                    return;
                }
                if (served++ > 0 && dropReusedConnections) {
                    return; // as if the provider closed the kept connection just as the request went out
                }
                RecordedRequest request = next.get();
                boolean clientAskedToClose = request.header("connection")
                        .map(v -> v.toLowerCase(Locale.ROOT).contains("close")).orElse(false);
                RawExchange exchange = new RawExchange(socket, in, out, clientAskedToClose);
                try {
                    handler.handle(request, exchange);
                } catch (RuntimeException e) {
                    if (!exchange.answered()) {
                        writePlain(out, 500, "Internal Server Error", "fake upstream handler failed: " + e);
                    }
                    return;
                }
                if (!exchange.answered()) {
                    writePlain(out, 500, "Internal Server Error", "fake upstream handler sent no answer");
                    return;
                }
                if (!socket.isClosed()) {
                    out.flush(); // a responder's raw bytes may still sit in the buffer
                }
                if (!exchange.reusable()) {
                    return;
                }
            }
        } catch (IOException e) {
            // the client went away, the connection was reset on purpose, or the server is stopping
        } finally {
            open.remove(socket);
        }
    }

    private static void writePlain(OutputStream out, int status, String reason, String text) throws IOException {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 " + status + " " + reason + "\r\ncontent-type: text/plain; charset=utf-8\r\n"
                + "content-length: " + body.length + "\r\nconnection: close\r\n\r\n";
        out.write(head.getBytes(StandardCharsets.ISO_8859_1));
        out.write(body);
        out.flush();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already gone
        }
    }
}
