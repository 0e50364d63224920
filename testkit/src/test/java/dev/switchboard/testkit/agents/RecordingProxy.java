package dev.switchboard.testkit.agents;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A loopback reverse proxy between a coding agent and the gateway that keeps what the agent sent (method,
 * path and query, headers, body) and what the gateway answered (status), passing the answer through as it
 * arrives (streams stay streams). The agent suite needs it to see the client side of the conversation:
 * the request shapes that become wire fixtures, and proof of what the agent itself asked for.
 */
final class RecordingProxy implements AutoCloseable {
    private static final Set<String> NOT_FORWARDED = Set.of("host", "connection", "content-length", "expect", "upgrade",
            "transfer-encoding", "keep-alive", "http2-settings", "te");

    /** One exchange as the agent made it. */
    record Exchange(String method, String pathAndQuery, Map<String, String> headers, byte[] body, int status) {
        String bodyText() {
            return new String(body, java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    private final HttpServer server;
    private final HttpClient client;
    private final URI target;
    private final List<Exchange> exchanges = new CopyOnWriteArrayList<>();

    private RecordingProxy(URI target) throws IOException {
        this.target = target;
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::forward);
        server.start();
    }

    /** Starts a proxy on a free loopback port in front of {@code target} ({@code http://127.0.0.1:port}). */
    static RecordingProxy start(String target) {
        try {
            return new RecordingProxy(URI.create(target));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    List<Exchange> exchanges() {
        return List.copyOf(exchanges);
    }

    void clear() {
        exchanges.clear();
    }

    private void forward(HttpExchange in) throws IOException {
        byte[] body;
        try (InputStream is = in.getRequestBody()) {
            body = is.readAllBytes();
        }
        Map<String, String> headers = new TreeMap<>();
        in.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), String.join(",", v)));
        String pathAndQuery = in.getRequestURI().getRawPath()
                + (in.getRequestURI().getRawQuery() == null ? "" : "?" + in.getRequestURI().getRawQuery());
        HttpRequest.Builder out = HttpRequest.newBuilder(target.resolve(pathAndQuery))
                .timeout(Duration.ofMinutes(5))
                .method(in.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach((k, v) -> {
            if (!NOT_FORWARDED.contains(k)) {
                out.header(k, v);
            }
        });
        int status = 502;
        try {
            HttpResponse<InputStream> answer = client.send(out.build(), HttpResponse.BodyHandlers.ofInputStream());
            status = answer.statusCode();
            List<String> names = new ArrayList<>(answer.headers().map().keySet());
            for (String name : names) {
                if (!NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT)) && !name.startsWith(":")) {
                    answer.headers().allValues(name).forEach(v -> in.getResponseHeaders().add(name, v));
                }
            }
            in.sendResponseHeaders(status, in.getRequestMethod().equals("HEAD") ? -1 : 0);
            try (InputStream from = answer.body(); OutputStream to = in.getResponseBody()) {
                byte[] buffer = new byte[8192];
                for (int n; (n = from.read(buffer)) >= 0; ) {
                    to.write(buffer, 0, n);
                    to.flush();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            in.sendResponseHeaders(502, -1);
        } catch (IOException e) {
            // the agent or the gateway went away mid-answer; the record below still says what was asked
        } finally {
            exchanges.add(new Exchange(in.getRequestMethod(), pathAndQuery, headers, body, status));
            in.close();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        client.close();
    }
}
