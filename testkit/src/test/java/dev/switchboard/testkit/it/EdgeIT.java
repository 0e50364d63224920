package dev.switchboard.testkit.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.testkit.GatewayExtension;
import dev.switchboard.testkit.HttpSupport;
import dev.switchboard.testkit.TestGateway;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What the HTTP edge answers before any handler runs, or for every route alike: oversized or malformed
 * requests get a 4xx in the envelope of the format the path belongs to (never an empty body or a 5xx),
 * another method on a known path is a 405 with {@code Allow}, CORS preflights follow {@code cors.allowed_origins},
 * and {@code /metrics} can require a token.
 */
class EdgeIT {
    private static final int MAX_BODY = 64 * 1024;
    private static final String ORIGIN = "https://app.example.com";
    private static final String METRICS_TOKEN = "metrics-token-for-tests";

    @RegisterExtension
    static final GatewayExtension GATEWAY = new GatewayExtension(ItSupport.CONFIG + """
            http: {max_body: 64KB, heartbeat: 10s}
            cors: {allowed_origins: ["%s"]}
            metrics: {token: %s}
            """.formatted(ORIGIN, METRICS_TOKEN));

    private static TestGateway gateway;

    @BeforeAll
    static void connect() {
        gateway = GATEWAY.gateway();
        gateway.upstream().requireKey(ItSupport.UPSTREAM_KEY);
    }

    /** The chat endpoints, each with its path and how its error envelope is recognised. */
    enum Format {
        CHAT("/v1/chat/completions"),
        MESSAGES("/v1/messages"),
        CONTENT_PARTS("/v1beta/models/chat-basic:generateContent"),
        RESPONSES("/v1/responses");

        final String path;

        Format(String path) {
            this.path = path;
        }

        void assertEnvelope(Raw response, int status) {
            assertThat(response.status()).as("%s status", this).isEqualTo(status);
            assertThat(response.headers().get("content-type")).startsWith("application/json");
            ErrorEnvelopeSupport.assertEnvelope(this, response.body(), status);
        }
    }

    record Raw(int status, Map<String, String> headers, String body) {
    }

    /** Sends raw bytes on a fresh connection and reads one response (the server may close right after it). */
    private static Raw exchange(String head, byte[] body, boolean chunked) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", gateway.app().port())) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.ISO_8859_1));
            try {
                if (chunked) {
                    for (int off = 0; off < body.length; off += 8192) {
                        int n = Math.min(8192, body.length - off);
                        out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                        out.write(body, off, n);
                        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                    }
                    out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                } else {
                    out.write(body);
                }
                out.flush();
            } catch (SocketException e) {
                // the server answered and closed before the whole body was sent: read what it said
            }
            return read(new BufferedInputStream(socket.getInputStream()));
        }
    }

    private static Raw read(InputStream in) throws IOException {
        RawHttpSupport.Head head = RawHttpSupport.readHead(in);
        return new Raw(head.status(), head.headers(), new String(in.readNBytes(head.contentLength()), StandardCharsets.UTF_8));
    }

    private static String head(Format f, String framing, String... extra) {
        StringBuilder h = new StringBuilder("POST " + f.path + " HTTP/1.1\r\nhost: gateway\r\ncontent-type: application/json\r\n"
                + "authorization: Bearer " + gateway.apiKey() + "\r\nanthropic-version: 2023-06-01\r\n");
        for (String line : extra) {
            h.append(line).append("\r\n");
        }
        return h.append(framing).append("\r\n\r\n").toString();
    }

    private static byte[] oversized() {
        String filler = "x".repeat(MAX_BODY + 1000);
        return ("{\"model\":\"chat-basic\",\"messages\":[{\"role\":\"user\",\"content\":\"" + filler + "\"}]}")
                .getBytes(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @EnumSource(Format.class)
    void aChunkedBodyOverTheLimitIs413InTheFormatsEnvelope(Format f) throws IOException {
        Raw r = exchange(head(f, "transfer-encoding: chunked"), oversized(), true);

        f.assertEnvelope(r, 413);
        assertThat(ItSupport.json(r.body()).path("error").path("message").asText()).contains(Integer.toString(MAX_BODY));
        assertThat(gateway.upstream().received()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Format.class)
    void aContentLengthOverTheLimitIs413WithABody(Format f) throws IOException {
        byte[] body = oversized();

        Raw r = exchange(head(f, "content-length: " + body.length), body, false);

        f.assertEnvelope(r, 413);
    }

    @ParameterizedTest
    @EnumSource(Format.class)
    void brokenChunkedFramingIs400(Format f) throws IOException {
        Raw r = exchange(head(f, "transfer-encoding: chunked"), "zz\r\n{}\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII), false);

        assertThat(r.status()).isBetween(400, 499);
        f.assertEnvelope(r, r.status());
    }

    @ParameterizedTest
    @EnumSource(Format.class)
    void aHugeAuthorizationHeaderIsA4xxInTheFormatsEnvelope(Format f) throws IOException {
        for (int size : List.of(8_000, 70_000)) {
            String head = "POST " + f.path + " HTTP/1.1\r\nhost: gateway\r\ncontent-type: application/json\r\n"
                    + "anthropic-version: 2023-06-01\r\nauthorization: Bearer " + "k".repeat(size) + "\r\ncontent-length: 2\r\n\r\n";

            Raw r = exchange(head, "{}".getBytes(StandardCharsets.US_ASCII), false);

            assertThat(r.status()).as("%s with a %d-character key", f, size).isIn(401, 431);
            f.assertEnvelope(r, r.status());
        }
    }

    @Test
    void aHugeKeyQueryParameterIsA4xxInTheContentPartsEnvelope() throws IOException {
        for (int size : List.of(9_000, 70_000)) {
            String head = "POST /v1beta/models/chat-basic:generateContent?key=" + "k".repeat(size)
                    + " HTTP/1.1\r\nhost: gateway\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n";

            Raw r = exchange(head, "{}".getBytes(StandardCharsets.US_ASCII), false);

            assertThat(r.status()).as("a %d-character key", size).isIn(401, 414);
            if (r.status() == 401) {
                Format.CONTENT_PARTS.assertEnvelope(r, 401);
            } else {
                // a request line too long to read has no path to tell the format by: the common envelope
                assertThat(ItSupport.json(r.body()).path("error").path("code").asText()).isEqualTo("414");
            }
        }
    }

    @Test
    void anotherMethodOnAKnownPathIs405WithAllowInThatPathsFormat() {
        HttpResponse<String> chat = ItSupport.get(gateway, "/v1/chat/completions", ItSupport.bearer(gateway.apiKey()));
        assertThat(chat.statusCode()).isEqualTo(405);
        assertThat(chat.headers().firstValue("allow")).hasValue("POST, OPTIONS");
        assertThat(ItSupport.json(chat.body()).path("error").path("code").asText()).isEqualTo("405");

        HttpResponse<String> messages = ItSupport.get(gateway, "/v1/messages", Map.of());
        assertThat(messages.statusCode()).isEqualTo(405);
        assertThat(ItSupport.json(messages.body()).path("type").asText()).as("the messages envelope").isEqualTo("error");

        HttpResponse<String> responses = ItSupport.put(gateway, "/v1/responses/resp_123", ItSupport.bearer(gateway.apiKey()), "{}");
        assertThat(responses.statusCode()).isEqualTo(405);
        assertThat(responses.headers().firstValue("allow").orElseThrow()).contains("GET", "DELETE", "OPTIONS");

        assertThat(ItSupport.get(gateway, "/v1/nothing-here", Map.of()).statusCode()).as("unknown paths stay 404").isEqualTo(404);
    }

    private static HttpResponse<String> options(String path, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path))
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody());
        headers.forEach(b::header);
        return HttpSupport.send(HttpClient.newHttpClient(), b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aPreflightFromAnAllowedOriginIsAnsweredAndOthersGetNoGrant() {
        HttpResponse<String> allowed = options( "/v1/chat/completions", Map.of("origin", ORIGIN,
                "access-control-request-method", "POST", "access-control-request-headers", "authorization, content-type"));
        assertThat(allowed.statusCode()).isEqualTo(204);
        assertThat(allowed.headers().firstValue("access-control-allow-origin")).hasValue(ORIGIN);
        assertThat(allowed.headers().firstValue("access-control-allow-methods").orElseThrow()).contains("POST");
        assertThat(allowed.headers().firstValue("access-control-allow-headers").orElseThrow()).contains("authorization");

        HttpResponse<String> other = options( "/v1/chat/completions", Map.of("origin",
                "https://elsewhere.example.com", "access-control-request-method", "POST"));
        assertThat(other.statusCode()).isEqualTo(204);
        assertThat(other.headers().firstValue("access-control-allow-origin")).isEmpty();
        assertThat(other.headers().firstValue("access-control-allow-methods")).isEmpty();
    }

    @Test
    void anAnswerToAnAllowedOriginCarriesTheGrantAndExposesTheRequestId() {
        Map<String, String> headers = new LinkedHashMap<>(ItSupport.bearer(gateway.apiKey()));
        headers.put("origin", ORIGIN);
        headers.put("content-type", "application/json");

        HttpResponse<String> r = ItSupport.post(gateway, "/v1/chat/completions", headers,
                "{\"model\":\"chat-basic\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("access-control-allow-origin")).hasValue(ORIGIN);
        assertThat(r.headers().firstValue("access-control-expose-headers").orElseThrow()).contains("x-request-id");
    }

    @Test
    void metricsNeedTheTokenAndEveryMeterHasHelpText() {
        ItSupport.post(gateway, "/v1/chat/completions", ItSupport.bearer(gateway.apiKey()), "{}"); // at least one request metric

        HttpResponse<String> anonymous = ItSupport.get(gateway, "/metrics", Map.of());
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(ItSupport.get(gateway, "/metrics", ItSupport.bearer("wrong")).statusCode()).isEqualTo(401);

        HttpResponse<String> scraped = ItSupport.get(gateway, "/metrics", ItSupport.bearer(METRICS_TOKEN));
        assertThat(scraped.statusCode()).isEqualTo(200);
        List<String> help = scraped.body().lines().filter(l -> l.startsWith("# HELP switchboard_")).toList();
        assertThat(help).isNotEmpty().allSatisfy(l -> assertThat(l.split(" ", 4)).as(l).hasSize(4));
        assertThat(help).allSatisfy(l -> assertThat(l.split(" ", 4)[3].strip()).as(l).isNotEmpty());
        assertThat(ItSupport.get(gateway, "/health", Map.of()).statusCode()).as("health stays open").isEqualTo(200);
    }
}
