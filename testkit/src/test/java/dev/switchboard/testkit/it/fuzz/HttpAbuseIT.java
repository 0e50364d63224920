package dev.switchboard.testkit.it.fuzz;

import static dev.switchboard.testkit.GatewayConfigSupport.model;
import static dev.switchboard.testkit.GatewayConfigSupport.models;
import static dev.switchboard.testkit.GatewayConfigSupport.provider;
import static dev.switchboard.testkit.GatewayConfigSupport.providers;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.testkit.GatewayExtension;
import dev.switchboard.testkit.TestGateway;
import dev.switchboard.testkit.it.ErrorEnvelopeSupport;
import dev.switchboard.testkit.it.RawHttpSupport;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Abuse of the HTTP layer over raw sockets, where a client library would refuse to send it: a 100 MB chunked body, a
 * body limit + 1 bytes long from a real client, a body at one byte a second, a header block dripped a byte at a time,
 * CR and LF inside header values, 1,000 headers, 100 KB of headers, two {@code Authorization} headers,
 * {@code Connection: close}, and {@code ../} (plain and percent-encoded) in every path parameter of every route. Each
 * gets a 4xx in the envelope of the path's format (or, for traversal, whatever the normalised path answers below 500),
 * the connection ends cleanly where it must (an answer, then end of stream, never a reset before the answer), and the
 * upstream, a listener counting connections, is never called.
 */
class HttpAbuseIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_BODY = 2 * 1024 * 1024;
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(3);
    private static final AtomicInteger STRAY_CONNECTIONS = new AtomicInteger();
    private static final ServerSocket STRAY = strayListener();

    @RegisterExtension
    static final GatewayExtension GATEWAY = new GatewayExtension(TestGateway.DEFAULT_HEADER + """
            http: {max_body: 2MB, read_timeout: 3s}
            """
            + providers(provider("never", "openai", "http://127.0.0.1:%d/v1".formatted(STRAY.getLocalPort()),
                    "{connect: 1s, first_byte: 2s, idle: 2s, total: 5s}", "sk-upstream-never-0123456789"))
            + models(model("abuse").route("never/up-never")));

    private static TestGateway gateway;

    /** The chat endpoints, each with a body it refuses (no messages) and how its error envelope looks. */
    enum Format {
        CHAT("/v1/chat/completions", "{\"model\":\"abuse\",\"messages\":[]}"),
        MESSAGES("/v1/messages", "{\"model\":\"abuse\",\"max_tokens\":10,\"messages\":[]}"),
        CONTENT_PARTS("/v1beta/models/abuse:generateContent", "{\"contents\":[]}"),
        RESPONSES("/v1/responses", "{\"model\":\"abuse\",\"input\":[]}");

        final String path;
        final String refusedBody;

        Format(String path, String refusedBody) {
            this.path = path;
            this.refusedBody = refusedBody;
        }

        void assertEnvelope(Raw r, int status) {
            assertThat(r.status()).as("%s: %s", this, r).isEqualTo(status);
            ErrorEnvelopeSupport.assertEnvelope(this, r.body(), status);
        }
    }

    /** One response read off a raw connection, and whether the server then ended the connection. */
    record Raw(int status, Map<String, String> headers, String body, boolean closedAfter) {
    }

    @BeforeAll
    static void connect() {
        gateway = GATEWAY.gateway();
    }

    @AfterAll
    static void noConnectionEverReachedTheUpstream() throws IOException {
        STRAY.close();
        assertThat(STRAY_CONNECTIONS.get()).as("connections to the upstream that must not be called").isZero();
    }

    @ParameterizedTest
    @EnumSource(Format.class)
    void connectionCloseFromTheClientEndsTheConnectionAfterTheAnswer(Format f) throws IOException {
        try (Socket s = socket()) {
            send(s, head(f, "content-length: " + f.refusedBody.length(), "connection: close"), f.refusedBody.getBytes(StandardCharsets.UTF_8));
            Raw r = read(s, true);
            f.assertEnvelope(r, 400);
            assertThat(r.closedAfter()).as("the connection ended after the answer").isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(Format.class)
    void aBodyOneByteOverTheLimitFromARealClientGets413NotAReset(Format f) throws Exception {
        byte[] body = ("{\"model\":\"abuse\",\"x\":\"" + "x".repeat(MAX_BODY) + "\"}").getBytes(StandardCharsets.UTF_8);
        byte[] over = java.util.Arrays.copyOf(body, MAX_BODY + 1);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + f.path))
                .header("authorization", "Bearer " + gateway.apiKey()).header("x-goog-api-key", gateway.apiKey())
                .header("anthropic-version", "2023-06-01").header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(over)).build(), HttpResponse.BodyHandlers.ofString());
        f.assertEnvelope(new Raw(r.statusCode(), Map.of(), r.body(), false), 413);
    }

    @ParameterizedTest
    @EnumSource(Format.class)
    void aHundredMegabyteChunkedBodyIsReadToItsEndAndAnswered413(Format f) throws IOException {
        try (Socket s = socket()) {
            OutputStream out = s.getOutputStream();
            out.write(head(f, "transfer-encoding: chunked").getBytes(StandardCharsets.ISO_8859_1));
            byte[] chunk = new byte[64 * 1024];
            java.util.Arrays.fill(chunk, (byte) 'x');
            byte[] size = (Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
            for (long sent = 0; sent < 100L * 1024 * 1024; sent += chunk.length) {
                out.write(size);
                out.write(chunk);
                out.write("\r\n".getBytes(StandardCharsets.US_ASCII)); // a reset here fails the test: the server left early
            }
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            Raw r = read(s, true);
            f.assertEnvelope(r, 413);
            assertThat(r.closedAfter()).isTrue();
        }
    }

    /**
     * Writes {@code bytes} one at a time, {@code pause} apart, until all are written, the server has something to
     * say, or {@code limit} has passed. A connection the server ends meanwhile ends the drip: what it wrote first
     * is read next.
     */
    private static void drip(Socket s, byte[] bytes, Duration pause, Duration limit) throws IOException, InterruptedException {
        OutputStream out = s.getOutputStream();
        long start = System.nanoTime();
        try {
            for (int i = 0; i < bytes.length && Duration.ofNanos(System.nanoTime() - start).compareTo(limit) < 0; i++) {
                out.write(bytes[i]);
                out.flush();
                Thread.sleep(pause.toMillis());
                if (s.getInputStream().available() > 0) {
                    break;
                }
            }
        } catch (IOException e) {
            // the server answered and ended the connection
        }
    }

    @Test
    void aBodyAtOneBytePerSecondIs408() throws Exception {
        Format f = Format.CHAT;
        try (Socket s = socket()) {
            byte[] body = f.refusedBody.getBytes(StandardCharsets.UTF_8);
            OutputStream out = s.getOutputStream();
            out.write(head(f, "content-length: " + body.length).getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            long start = System.nanoTime();
            drip(s, body, Duration.ofSeconds(1), Duration.ofSeconds(20));
            Raw r = read(s, true);
            f.assertEnvelope(r, 408);
            System.out.println("a body at 1 byte/s: 408 after " + Duration.ofNanos(System.nanoTime() - start).toMillis() + " ms");
        }
    }

    @ParameterizedTest
    @EnumSource(Format.class)
    void aHeaderBlockDrippedAByteAtATimeIs408AndClosedWithinTheReadTimeout(Format f) throws Exception {
        try (Socket s = socket()) {
            OutputStream out = s.getOutputStream();
            out.write(("POST " + f.path + " HTTP/1.1\r\nhost: gateway\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            long start = System.nanoTime();
            byte[] header = "x-drip: ".concat("a".repeat(200)).getBytes(StandardCharsets.US_ASCII);
            // no limit of its own: the whole drip (40 s) outlasts the read timeout it is there to meet
            drip(s, header, Duration.ofMillis(200), Duration.ofMinutes(1));
            Raw r = read(s, true);
            long tookMs = Duration.ofNanos(System.nanoTime() - start).toMillis();
            f.assertEnvelope(r, 408);
            assertThat(r.closedAfter()).isTrue();
            assertThat(tookMs).as("closed within the read timeout and a little").isLessThan(READ_TIMEOUT.toMillis() + 5_000);
        }
    }

    @ParameterizedTest
    @EnumSource(Format.class)
    void carriageReturnsAndLineFeedsInsideHeaderValuesAre4xx(Format f) throws IOException {
        for (String bad : List.of("x-evil: a\rb", "x-evil: a\nset-cookie: b", "x-evil: a\r\nbroken header line", "x-evil: a\u0000b",
                "authorization: Bearer " + gateway.apiKey() + "\r\n\r\nGET /admin/v1/users HTTP/1.1")) {
            try (Socket s = socket()) {
                byte[] body = f.refusedBody.getBytes(StandardCharsets.UTF_8);
                send(s, head(f, "content-length: " + body.length, bad), body);
                Raw r = read(s, false);
                assertThat(r.status()).as("%s with %s", f, bad.replace("\r", "\\r").replace("\n", "\\n")).isBetween(400, 499);
                f.assertEnvelope(r, r.status());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Format.class)
    void aThousandHeadersAndAHundredKilobytesOfHeadersAre4xxInTheEnvelope(Format f) throws IOException {
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            many.add("x-h" + i + ": v" + i);
        }
        List<String> huge = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            huge.add("x-big" + i + ": " + "b".repeat(1024));
        }
        byte[] body = f.refusedBody.getBytes(StandardCharsets.UTF_8);
        for (List<String> extra : List.of(many, huge)) {
            try (Socket s = socket()) {
                List<String> lines = new ArrayList<>(extra);
                lines.add("content-length: " + body.length);
                send(s, head(f, lines.toArray(String[]::new)), body);
                Raw r = read(s, false);
                assertThat(r.status()).as("%s with %d extra headers", f, extra.size()).isIn(400, 431);
                f.assertEnvelope(r, r.status());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Format.class)
    void twoAuthorizationHeadersAreRefusedNotMerged(Format f) throws IOException {
        for (List<String> pair : List.of(List.of("authorization: Bearer sk-sb-wrong-0123456789", "authorization: Bearer " + gateway.apiKey()),
                List.of("authorization: Bearer " + gateway.apiKey(), "authorization: Bearer sk-sb-wrong-0123456789"))) {
            try (Socket s = socket()) {
                byte[] body = f.refusedBody.getBytes(StandardCharsets.UTF_8);
                StringBuilder h = new StringBuilder("POST " + f.path + " HTTP/1.1\r\nhost: gateway\r\ncontent-type: application/json\r\n"
                        + "anthropic-version: 2023-06-01\r\n");
                pair.forEach(line -> h.append(line).append("\r\n"));
                h.append("content-length: ").append(body.length).append("\r\n\r\n");
                send(s, h.toString(), body);
                Raw r = read(s, false);
                f.assertEnvelope(r, 400);
                assertThat(json(r.body()).path("error").path("param").asText()).isEqualTo("authorization");
                assertThat(json(r.body()).path("error").path("message").asText()).contains("sent 2 times");
            }
        }
    }

    /** Every route with a path parameter, with each parameter replaced by a way up the tree. */
    @Test
    void dotDotInEveryPathParameterNeverReachesWhatTheKeyMayNotSeeNorAnswers5xx() throws IOException {
        List<String> patterns = List.of("/admin/v1/extend/plugins/{id}/artifact", "/admin/v1/extend/{kind}",
                "/admin/v1/extend/{kind}/{id}", "/admin/v1/keys/{id}", "/admin/v1/users/{id}", "/admin/v1/users/{id}/credits",
                "/admin/v1/users/{id}/defaults/{model}", "/admin/v1/users/{id}/keys", "/admin/v1/users/{id}/ledger",
                "/admin/v1/users/{id}/password", "/admin/v1/users/{id}/plan", "/admin/v1/users/{id}/role",
                "/api/models/{id}/allowed-params", "/v1/characters/{id}", "/v1/characters/{id}/card",
                "/v1/characters/{id}/interact", "/v1/defaults/{model}", "/v1/keys/{id}", "/v1/marketplaces/{id}",
                "/v1/mcp-servers/{id}", "/v1/plugins/download/{file_name}", "/v1/plugins/{id}", "/v1/responses/{id}",
                "/v1/responses/{id}/input_items", "/v1/skills/{id}", "/v1/skills/{id}/fork", "/v1/skills/{id}/install",
                "/v1beta/models/{model}:generateContent", "/v1beta/models/{model}");
        List<String> ups = List.of("..", "../..", "../../admin/v1/users", "..%2f..%2fadmin%2fv1%2fusers", "%2e%2e%2f%2e%2e%2f",
                "%2e%2e", "%252e%252e%252f", "..%5c..%5c", "....//....//", "%c0%ae%c0%ae%2f", "..;", "%00..");
        Map<String, Integer> byStatus = new java.util.TreeMap<>();
        List<String> problems = new ArrayList<>();
        for (String pattern : patterns) {
            for (String up : ups) {
                String path = pattern.replaceAll("\\{[a-z_]+\\}", up);
                for (String method : List.of("GET", "POST", "DELETE")) {
                    try (Socket s = socket()) {
                        String h = method + " " + path + " HTTP/1.1\r\nhost: gateway\r\nauthorization: Bearer " + gateway.apiKey()
                                + "\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n";
                        send(s, h, "{}".getBytes(StandardCharsets.US_ASCII));
                        Raw r = read(s, false);
                        byStatus.merge(r.status() / 100 + "xx", 1, Integer::sum);
                        if (r.status() >= 500) {
                            problems.add(method + " " + path + " -> " + r.status() + " " + r.body());
                        } else if (r.status() >= 400 && !json(r.body()).path("error").path("message").isTextual()) {
                            problems.add(method + " " + path + " -> " + r.status() + " without an error envelope: " + r.body());
                        } else if (r.status() < 300 && r.body().contains("\"users\"")) {
                            problems.add(method + " " + path + " reached the admin user list: " + r.body());
                        }
                    }
                }
            }
        }
        System.out.println("traversal: " + patterns.size() * ups.size() * 3 + " requests, answers " + byStatus);
        assertThat(problems).isEmpty();
    }

    private static Socket socket() throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), gateway.app().port());
        s.setSoTimeout(30_000);
        return s;
    }

    private static String head(Format f, String... extra) {
        StringBuilder h = new StringBuilder("POST " + f.path + " HTTP/1.1\r\nhost: gateway\r\ncontent-type: application/json\r\n"
                + "authorization: Bearer " + gateway.apiKey() + "\r\nanthropic-version: 2023-06-01\r\n");
        for (String line : extra) {
            h.append(line).append("\r\n");
        }
        return h.append("\r\n").toString();
    }

    private static void send(Socket s, String head, byte[] body) throws IOException {
        OutputStream out = s.getOutputStream();
        try {
            out.write(head.getBytes(StandardCharsets.ISO_8859_1));
            out.write(body);
            out.flush();
        } catch (IOException e) {
            // the server answered early and closed: its answer is still to be read
        }
    }

    /** Reads one response; with {@code checkClose}, then waits up to 3 s for the server to end the connection. */
    private static Raw read(Socket s, boolean checkClose) throws IOException {
        InputStream in = s.getInputStream();
        RawHttpSupport.Head head = RawHttpSupport.readHead(in);
        String body = new String(in.readNBytes(head.contentLength()), StandardCharsets.UTF_8);
        boolean closed = false;
        if (checkClose) {
            s.setSoTimeout(3_000);
            try {
                closed = in.read() < 0;
            } catch (SocketTimeoutException e) {
                closed = false;
            }
        }
        return new Raw(head.status(), head.headers(), body, closed);
    }

    private static JsonNode json(String text) {
        try {
            JsonNode n = JSON.readTree(text);
            return n == null ? JSON.nullNode() : n;
        } catch (IOException e) {
            return JSON.nullNode();
        }
    }

    private static ServerSocket strayListener() {
        try {
            ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread t = new Thread(() -> {
                while (!server.isClosed()) {
                    try (Socket s = server.accept()) {
                        STRAY_CONNECTIONS.incrementAndGet();
                    } catch (IOException e) {
                        return;
                    }
                }
            }, "stray-connection-counter");
            t.setDaemon(true);
            t.start();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
