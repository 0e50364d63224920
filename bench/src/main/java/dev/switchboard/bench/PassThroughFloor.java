package dev.switchboard.bench;

import dev.switchboard.engine.catalog.Timeouts;
import dev.switchboard.engine.upstream.HttpCall;
import dev.switchboard.engine.upstream.UpstreamClient;
import dev.switchboard.engine.upstream.UpstreamResponse;
import dev.switchboard.engine.upstream.Watchdog;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The cost floor of the gateway's HTTP stack: a proxy made of the same HTTP server (Helidon's, set up as the gateway
 * sets it up: virtual thread per request, backlog 4096, no Nagle) and the same upstream client and pool
 * ({@link UpstreamClient}) as the gateway, with nothing between them. A POST is read whole, sent on to the upstream at
 * the same path, and the answer copied back: JSON whole, an event stream as it arrives, flushed whenever nothing more
 * has arrived yet (what was ready goes out in one write, never held for more, as the gateway does). No parsing,
 * translation, keys, limits, billing, logging or metrics.
 *
 * <p>Measured beside the gateway (the load script's {@code --floor}, or as one more target of a side-by-side run), the
 * difference between the two is what the gateway's own work costs, and this process' CPU per request is the least any
 * gateway built on this stack can cost.
 *
 * <p>Usage: {@code java -cp bench/target/benchmarks.jar dev.switchboard.bench.PassThroughFloor PORT UPSTREAM_URL}
 * (for instance {@code 18170 http://127.0.0.1:18180}); it listens on 127.0.0.1 only and runs until killed.
 */
public final class PassThroughFloor {
    private PassThroughFloor() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 2 || !args[0].matches("\\d{1,5}") || !args[1].matches("https?://[^/]+")) {
            System.err.println("usage: PassThroughFloor PORT UPSTREAM_URL   (for instance 18170 http://127.0.0.1:18180;"
                    + " the URL is scheme, host and port only: each request keeps its own path)");
            System.exit(2);
        }
        int port = Integer.parseInt(args[0]);
        URI upstream = URI.create(args[1]);
        Watchdog watchdog = new Watchdog(Duration.ofMillis(50));
        UpstreamClient client = new UpstreamClient(watchdog);
        WebServer server = WebServer.builder()
                .host("127.0.0.1")
                .port(port)
                .backlog(4096)
                .maxPayloadSize(-1)
                .connectionOptions(o -> o.tcpNoDelay(true))
                .shutdownHook(false)
                .routing(HttpRouting.builder().post("/*", (req, res) -> forward(client, upstream, req, res)))
                .build()
                .start();
        System.out.println("pass-through floor listening on 127.0.0.1:" + server.port() + ", upstream " + upstream);
        new CountDownLatch(1).await();
    }

    private static void forward(UpstreamClient client, URI upstream, ServerRequest req, ServerResponse res)
            throws IOException {
        byte[] body = req.content().inputStream().readAllBytes();
        boolean streaming = req.headers().first(HeaderNames.ACCEPT).map(a -> a.contains("text/event-stream"))
                .orElse(false) || contains(body, STREAM_TRUE) || contains(body, STREAM_TRUE_SPACED);
        HttpCall call = new HttpCall(upstream.resolve(req.path().rawPath()),
                Map.of("Content-Type", "application/json"), body, streaming);
        try (UpstreamResponse answer = client.send(call, Timeouts.DEFAULT)) {
            res.status(Status.create(answer.status()));
            String type = answer.header("Content-Type").orElse("application/json");
            res.header(HeaderNames.CONTENT_TYPE, type);
            if (!type.startsWith("text/event-stream")) {
                res.send(answer.readAll());
                return;
            }
            byte[] buffer = new byte[16 * 1024];
            InputStream in = answer.body();
            try (OutputStream out = res.outputStream()) {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    out.write(buffer, 0, n);
                    if (in.available() == 0) {
                        out.flush();
                    }
                }
            }
        }
    }

    private static final byte[] STREAM_TRUE = "\"stream\":true".getBytes();
    private static final byte[] STREAM_TRUE_SPACED = "\"stream\": true".getBytes();

    /** Whether the request asks for a stream; a byte search, so that the floor parses no JSON. */
    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
