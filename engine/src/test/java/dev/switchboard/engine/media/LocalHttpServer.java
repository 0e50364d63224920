package dev.switchboard.engine.media;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A raw HTTP/1.1 server on 127.0.0.1 for the fetcher's tests: records each request head and lets the test
 * write whatever bytes it likes back, including broken or slow answers. Counts accepted connections.
 */
final class LocalHttpServer implements AutoCloseable {
    /** Writes the answer to one request. */
    @FunctionalInterface
    interface Handler {
        void handle(String requestHead, OutputStream out) throws IOException, InterruptedException;
    }

    private final ServerSocket socket;
    private final Handler handler;
    private final List<String> heads = new CopyOnWriteArrayList<>();
    private final AtomicInteger accepted = new AtomicInteger();
    private final List<Socket> open = new CopyOnWriteArrayList<>();

    LocalHttpServer(Handler handler) {
        this.handler = handler;
        try {
            socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread.ofVirtual().start(this::serve);
    }

    int port() {
        return socket.getLocalPort();
    }

    /** Request heads (request line and headers) in arrival order. */
    List<String> heads() {
        return new ArrayList<>(heads);
    }

    int accepted() {
        return accepted.get();
    }

    private void serve() {
        while (!socket.isClosed()) {
            try {
                Socket s = socket.accept();
                accepted.incrementAndGet();
                open.add(s);
                Thread.ofVirtual().start(() -> answer(s));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void answer(Socket s) {
        try (s) {
            String head = head(s.getInputStream());
            heads.add(head);
            handler.handle(head, s.getOutputStream());
            s.getOutputStream().flush();
        } catch (IOException | InterruptedException ignored) {
            // the client went away, or the test closed the server
        }
    }

    private static String head(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < 4) {
            int c = in.read();
            if (c < 0) {
                break;
            }
            out.write(c);
            matched = c == end[matched] ? matched + 1 : (c == '\r' ? 1 : 0);
        }
        return out.toString(StandardCharsets.US_ASCII);
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** A whole response with Content-Length. */
    static void respond(OutputStream out, String statusAndHeaders, byte[] body) throws IOException {
        out.write(ascii("HTTP/1.1 " + statusAndHeaders + "\r\nContent-Length: " + body.length + "\r\n\r\n"));
        out.write(body);
    }

    @Override
    public void close() throws IOException {
        socket.close();
        for (Socket s : open) {
            s.close();
        }
    }
}
