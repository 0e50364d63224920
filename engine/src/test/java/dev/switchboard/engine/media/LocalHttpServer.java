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
 * A raw HTTP/1.1 server on 127.0.0.1 (or another loopback address) for the fetcher's tests: records each request head and lets the test
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
        this(handler, InetAddress.getLoopbackAddress(), 0);
    }

    /** A server on one address of 127.0.0.0/8 and a given port (0: any free one). */
    LocalHttpServer(Handler handler, InetAddress address, int port) {
        this.handler = handler;
        try {
            socket = new ServerSocket(port, 50, address);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread.ofVirtual().start(this::serve);
    }

    int port() {
        return socket.getLocalPort();
    }

    /**
     * One fetch through the HTTP client with a generous limit, so that loading its classes on a cold JVM
     * (seconds on a busy machine) is not charged to the short deadlines the tests measure.
     */
    static void warmUpHttpClient() {
        try (LocalHttpServer s = new LocalHttpServer((head, out) -> respond(out, "200 OK\r\nContent-Type: image/png",
                new byte[] {1}))) {
            InetAddress loopback = InetAddress.getLoopbackAddress();
            new ImageFetcher(new FetchLimits(0, 1024, java.time.Duration.ofSeconds(60)), host -> List.of(loopback),
                    AddressGuard.allowingForTests(java.util.Set.of(loopback))).fetch("http://warm.test:" + s.port() + "/");
        } catch (IOException | ImageFetchException e) {
            throw new IllegalStateException("the HTTP client could not be warmed up", e);
        }
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

    /** An image of {@code length} bytes sent one byte every {@code pauseMillis}: a slow server that never goes quiet. */
    static Handler drip(int length, long pauseMillis) {
        return (head, out) -> {
            out.write(ascii("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: " + length + "\r\n\r\n"));
            for (int i = 0; i < length; i++) {
                out.write('x');
                out.flush();
                Thread.sleep(pauseMillis);
            }
        };
    }

    @Override
    public void close() throws IOException {
        socket.close();
        for (Socket s : open) {
            s.close();
        }
    }
}
