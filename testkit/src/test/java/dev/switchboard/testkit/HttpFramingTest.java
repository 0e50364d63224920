package dev.switchboard.testkit;

import static dev.switchboard.testkit.TestClient.chat;
import static dev.switchboard.testkit.TestClient.json;
import static dev.switchboard.testkit.TestClient.streaming;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** HTTP/1.1 framing of the raw server: keep-alive, chunked request bodies, connection handling. */
class HttpFramingTest extends FakeUpstreamSupport {
    @Test
    void servesSeveralRequestsOnOneConnection() throws Exception {
        try (RawConnection connection = new RawConnection(upstream)) {
            connection.write(RawConnection.post("/v1/chat/completions",
                    streaming(chat("fake-model", "one"), true).toString()));
            RawConnection.Response streamed = connection.read();
            connection.write(RawConnection.post("/v1/chat/completions", chat("fake-model", "two").toString()));
            RawConnection.Response plain = connection.read();

            assertThat(streamed.status()).isEqualTo(200);
            assertThat(streamed.headers()).containsEntry("transfer-encoding", "chunked");
            assertThat(TestClient.chunks(streamed.body())).isNotEmpty();
            assertThat(plain.status()).isEqualTo(200);
            assertThat(json(plain.body()).at("/choices/0/message/content").asText()).endsWith("You said: two");
        }
    }

    @Test
    void readsChunkedRequestBodies() throws Exception {
        byte[] body = chat("fake-model", "chunked hello").toString().getBytes(StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(URI.create(upstream.baseUrl() + "/v1/chat/completions"))
                .version(java.net.http.HttpClient.Version.HTTP_1_1)
                .header("content-type", "application/json")
                // An unknown length makes the JDK client send the body with chunked transfer coding.
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(body)))
                .build();

        HttpResponse<String> response = new TestClient(upstream).send(request);

        assertThat(response.statusCode()).isEqualTo(200);
        RecordedRequest recorded = upstream.received().getFirst();
        assertThat(recorded.header("transfer-encoding")).hasValue("chunked");
        assertThat(recorded.body()).isEqualTo(body);
        assertThat(json(response.body()).at("/choices/0/message/content").asText()).endsWith("chunked hello");
    }

    @Test
    void readsHandWrittenChunksWithExtensionsAndTrailers() throws Exception {
        String body = chat("fake-model", "split").toString();
        String first = body.substring(0, 10);
        String rest = body.substring(10);
        try (RawConnection connection = new RawConnection(upstream)) {
            connection.write("POST /v1/chat/completions HTTP/1.1\r\nhost: fake\r\ntransfer-encoding: chunked\r\n\r\n"
                    + Integer.toHexString(first.length()) + ";ext=1\r\n" + first + "\r\n"
                    + Integer.toHexString(rest.length()) + "\r\n" + rest + "\r\n"
                    + "0\r\nx-trailer: yes\r\n\r\n");

            assertThat(connection.read().status()).isEqualTo(200);
        }
        assertThat(upstream.received().getFirst().bodyText()).isEqualTo(body);
    }

    @Test
    void answersExpectContinueBeforeReadingTheBody() throws Exception {
        String body = chat("fake-model", "patient").toString();
        try (RawConnection connection = new RawConnection(upstream)) {
            connection.write("POST /v1/chat/completions HTTP/1.1\r\nhost: fake\r\nexpect: 100-continue\r\n"
                    + "content-length: " + body.length() + "\r\n\r\n");
            assertThat(connection.read().status()).isEqualTo(100);
            connection.write(body);

            assertThat(connection.read().status()).isEqualTo(200);
        }
    }

    @Test
    void honoursConnectionClose() throws Exception {
        try (RawConnection connection = new RawConnection(upstream)) {
            connection.write(RawConnection.post("/v1/chat/completions", chat("fake-model", "bye").toString(),
                    "connection: close"));

            RawConnection.Response response = connection.read();

            assertThat(response.status()).isEqualTo(200);
            assertThat(response.headers()).containsEntry("connection", "close");
            assertThat(connection.closedByServer()).isTrue();
        }
    }

    @Test
    void rejectsAGarbledRequestLineWith400AndCloses() throws Exception {
        try (RawConnection connection = new RawConnection(upstream)) {
            connection.write("HELLO\r\n\r\n");

            assertThat(connection.read().status()).isEqualTo(400);
            assertThat(connection.closedByServer()).isTrue();
        }
    }

    @Test
    void recordsPathQueryAndLowerCaseHeaders() throws Exception {
        try (RawConnection connection = new RawConnection(upstream)) {
            connection.write(RawConnection.post("/v1/chat/completions?api-version=2&x=y",
                    chat("fake-model", "q").toString(), "X-Custom-Header: One", "x-custom-header: Two"));
            connection.read();
        }
        RecordedRequest recorded = upstream.received().getFirst();
        assertThat(recorded.method()).isEqualTo("POST");
        assertThat(recorded.path()).isEqualTo("/v1/chat/completions");
        assertThat(recorded.query()).isEqualTo("api-version=2&x=y");
        assertThat(recorded.headers().get("x-custom-header")).isEqualTo(List.of("One", "Two"));
        assertThat(recorded.headers().keySet()).allSatisfy(name ->
                assertThat(name).isEqualTo(name.toLowerCase(java.util.Locale.ROOT)));
        assertThat(recorded.header("X-CUSTOM-HEADER")).hasValue("One");
    }
}
