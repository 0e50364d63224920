package dev.switchboard.engine.upstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.switchboard.engine.catalog.Timeouts;
import io.helidon.common.tls.Tls;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Providers reached over https: the TLS set-up is made on the first https connection (never for plain http, never at
 * construction), once, and requests go over it; a certificate the trust store does not vouch for is refused.
 */
class UpstreamClientTlsTest {
    private static final char[] PASSWORD = "changeit".toCharArray();
    private static final Timeouts TIMEOUTS = new Timeouts(Duration.ofSeconds(5), Duration.ofSeconds(10),
            Duration.ofSeconds(10), Duration.ofSeconds(20));

    @TempDir
    static Path dir;
    private static KeyStore keys;
    private static HttpsServer https;
    private static HttpServer http;
    private static Watchdog watchdog;

    @BeforeAll
    static void servers() throws Exception {
        // A certificate of our own for 127.0.0.1, made by the JDK's keytool: no test key material in the repository.
        Path store = dir.resolve("upstream.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "upstream", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=127.0.0.1",
                "-ext", "san=ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12", "-keystore", store.toString(),
                "-storepass", new String(PASSWORD)).redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(keytool.exitValue()).as(output).isZero();
        keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, PASSWORD);
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, PASSWORD);
        SSLContext serverContext = SSLContext.getInstance("TLS");
        serverContext.init(kmf.getKeyManagers(), null, null);

        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        https = HttpsServer.create(loopback, 0);
        https.setHttpsConfigurator(new HttpsConfigurator(serverContext));
        https.createContext("/v1/echo", exchange -> {
            byte[] body = ("{\"secure\":true,\"got\":" + new String(exchange.getRequestBody().readAllBytes(),
                    StandardCharsets.UTF_8) + "}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        https.start();
        http = HttpServer.create(loopback, 0);
        http.createContext("/v1/echo", exchange -> {
            byte[] body = "{\"secure\":false}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        http.start();
        watchdog = new Watchdog(Duration.ofMillis(50));
    }

    @AfterAll
    static void stop() {
        https.stop(0);
        http.stop(0);
        watchdog.close();
    }

    @Test
    void theTlsSetUpIsMadeOnTheFirstHttpsConnectionOnlyAndOnce() throws Exception {
        CountingTls tls = new CountingTls(this::trustingOurCertificate);
        try (UpstreamClient client = new UpstreamClient(watchdog, UpstreamPool.Settings.DEFAULTS, tls)) {
            assertThat(tls.made.get()).as("nothing made when the client is built").isZero();

            assertThat(post(client, "http://127.0.0.1:" + http.getAddress().getPort() + "/v1/echo"))
                    .isEqualTo("{\"secure\":false}");
            assertThat(tls.made.get()).as("nothing made for plain http").isZero();

            String url = "https://127.0.0.1:" + https.getAddress().getPort() + "/v1/echo";
            assertThat(post(client, url)).isEqualTo("{\"secure\":true,\"got\":{\"n\":1}}");
            // a second connection while the first is still in use, so that two connections are made
            try (UpstreamResponse first = client.send(call(url), TIMEOUTS)) {
                assertThat(post(client, url)).isEqualTo("{\"secure\":true,\"got\":{\"n\":1}}");
                assertThat(first.status()).isEqualTo(200);
                first.readAll();
            }
            assertThat(tls.made.get()).as("made once, for the first https connection").isEqualTo(1);
            assertThat(tls.asked.get()).as("asked for by each new https connection").isEqualTo(2);
        }
    }

    @Test
    void preparingInTheBackgroundMakesItBeforeAnyRequest() throws Exception {
        CountingTls tls = new CountingTls(this::trustingOurCertificate);
        try (UpstreamClient client = new UpstreamClient(watchdog, UpstreamPool.Settings.DEFAULTS, tls)) {
            client.prepareTlsInBackground();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (tls.made.get() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(tls.made.get()).isEqualTo(1);
        }
    }

    @Test
    void theDefaultSetUpRefusesACertificateTheJdkDoesNotTrust() {
        try (UpstreamClient client = new UpstreamClient(watchdog)) {
            assertThatThrownBy(() -> post(client, "https://127.0.0.1:" + https.getAddress().getPort() + "/v1/echo"))
                    .isInstanceOfSatisfying(UpstreamFailure.class, f -> assertThat(f.kind()).isEqualTo(UpstreamFailure.Kind.CONNECT))
                    .hasMessageStartingWith("the TLS handshake with the provider failed: ")
                    .hasMessageContaining("certification path");
        }
    }

    private Tls trustingOurCertificate() {
        try {
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(keys);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, tmf.getTrustManagers(), null);
            return Tls.builder().sslContext(context).build();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static HttpCall call(String url) {
        return new HttpCall(URI.create(url), Map.of(), "{\"n\":1}".getBytes(StandardCharsets.UTF_8), false);
    }

    private static String post(UpstreamClient client, String url) throws Exception {
        try (UpstreamResponse response = client.send(call(url), TIMEOUTS)) {
            assertThat(response.status()).isEqualTo(200);
            return new String(response.readAll(), StandardCharsets.UTF_8);
        }
    }

    /** Makes the set-up once, like the client's own, and counts how often it is asked for and made. */
    private static final class CountingTls implements Supplier<Tls> {
        final AtomicInteger asked = new AtomicInteger();
        final AtomicInteger made = new AtomicInteger();
        private final Supplier<Tls> maker;
        private Tls tls;

        CountingTls(Supplier<Tls> maker) {
            this.maker = maker;
        }

        @Override
        public synchronized Tls get() {
            asked.incrementAndGet();
            if (tls == null) {
                made.incrementAndGet();
                tls = maker.get();
            }
            return tls;
        }
    }
}
