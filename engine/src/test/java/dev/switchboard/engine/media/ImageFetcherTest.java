package dev.switchboard.engine.media;

import static dev.switchboard.engine.media.LocalHttpServer.ascii;
import static dev.switchboard.engine.media.LocalHttpServer.respond;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.engine.media.ImageFetchException.Reason;
import dev.switchboard.model.MediaSource;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ImageFetcherTest {
    @org.junit.jupiter.api.BeforeAll
    static void warmUp() {
        LocalHttpServer.warmUpHttpClient();
    }

    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final FetchLimits QUICK = new FetchLimits(3, 1024, Duration.ofMillis(800));

    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final AtomicInteger lookups = new AtomicInteger();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
    }

    private LocalHttpServer server(LocalHttpServer.Handler handler) {
        LocalHttpServer s = new LocalHttpServer(handler);
        toClose.add(s);
        return s;
    }

    /** A fetcher that may reach the loopback test server, named {@code images.test}; every other name is a test table. */
    private ImageFetcher testFetcher(FetchLimits limits, Map<String, List<String>> names) {
        HostResolver resolver = host -> {
            lookups.incrementAndGet();
            if (host.equals("images.test")) {
                return List.of(LOOPBACK);
            }
            List<String> table = names.get(host);
            if (table == null) {
                return HostResolver.SYSTEM.resolve(host);
            }
            List<InetAddress> out = new ArrayList<>();
            for (String a : table) {
                out.add(InetAddress.getByName(a));
            }
            return out;
        };
        return new ImageFetcher(limits, resolver, AddressGuard.allowingForTests(Set.of(LOOPBACK)));
    }

    private ImageFetcher testFetcher() {
        return testFetcher(QUICK, Map.of());
    }

    private static Reason reasonOf(ImageFetcher fetcher, String url) {
        try {
            fetcher.fetch(url);
        } catch (ImageFetchException e) {
            return e.reason();
        }
        throw new AssertionError("fetched " + url);
    }

    // --- the guard ---

    @ParameterizedTest
    @ValueSource(strings = {"http://127.0.0.1:%d/cat.png", "http://localhost:%d/cat.png", "http://[::1]:%d/cat.png",
            "http://[::ffff:127.0.0.1]:%d/cat.png", "http://0.0.0.0:%d/cat.png", "http://2130706433:%d/cat.png",
            "http://127.1:%d/cat.png", "https://127.0.0.1:%d/cat.png"})
    void aUrlToThisMachineIsRefusedWithoutAnyConnection(String pattern) throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getByName("0.0.0.0"))) {
            String url = pattern.formatted(listener.getLocalPort());
            ImageFetcher production = new ImageFetcher(FetchLimits.DEFAULT);

            assertThatThrownBy(() -> production.fetch(url))
                    .isInstanceOfSatisfying(ImageFetchException.class, e -> {
                        // 127.1 is not even a valid URL host to java.net.URI; refused all the same
                        assertThat(e.reason()).isEqualTo(pattern.contains("127.1:") ? Reason.BAD_URL : Reason.NOT_ALLOWED);
                        assertThat(e.getMessage()).doesNotContain("127.0.0.1");
                    });

            // a connection attempt would be waiting in the backlog; there is none
            listener.setSoTimeout(200);
            assertThatThrownBy(listener::accept).isInstanceOf(SocketTimeoutException.class);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://10.0.0.1/x.png", "http://169.254.169.254/latest/meta-data/", "http://192.168.1.1/",
            "http://172.16.5.4/", "http://100.64.0.1/", "http://[fd00::1]/", "http://[fe80::1]/", "http://224.0.0.1/",
            "http://[64:ff9b::a9fe:a9fe]/", "http://[2002:a00:1::]/"})
    void internalLiteralAddressesAreRefused(String url) {
        assertThat(reasonOf(new ImageFetcher(FetchLimits.DEFAULT), url)).isEqualTo(Reason.NOT_ALLOWED);
    }

    @Test
    void aHostIsRefusedWhenAnyOfItsAddressesIsInternal() {
        ImageFetcher fetcher = testFetcher(QUICK, Map.of("mixed.test", List.of("93.184.216.34", "10.0.0.1"),
                "rebind.test", List.of("8.8.8.8", "::ffff:169.254.169.254")));
        assertThat(reasonOf(fetcher, "http://mixed.test/cat.png")).isEqualTo(Reason.NOT_ALLOWED);
        assertThat(reasonOf(fetcher, "http://rebind.test/cat.png")).isEqualTo(Reason.NOT_ALLOWED);
    }

    @ParameterizedTest
    @ValueSource(strings = {"file:///etc/passwd", "ftp://example.com/cat.png", "gopher://example.com/", "cat.png",
            "//example.com/cat.png", "http://user:secret@example.com/cat.png", "http:///cat.png", "http://exa mple.com/",
            "data:image/png;base64,AAAA"})
    void onlyAbsoluteHttpUrlsWithoutCredentialsAreFetched(String url) {
        assertThat(reasonOf(new ImageFetcher(FetchLimits.DEFAULT), url)).isEqualTo(Reason.BAD_URL);
    }

    // --- the happy path, against a loopback server the test allowlist lets through ---

    @Test
    void fetchesAnImageConnectingToTheResolvedAddressWithTheOriginalHost() throws Exception {
        LocalHttpServer s = server((head, out) -> respond(out, "200 OK\r\nContent-Type: image/png; charset=binary", PNG));

        MediaSource.Base64 image = testFetcher().fetch("http://images.test:" + s.port() + "/cats/1.png?size=2#frag");

        assertThat(image.mediaType()).isEqualTo("image/png");
        assertThat(Base64.getDecoder().decode(image.data())).isEqualTo(PNG);
        String head = s.heads().getFirst();
        assertThat(head).startsWith("GET /cats/1.png?size=2 HTTP/1.1\r\n")
                .contains("\r\nHost: images.test:" + s.port() + "\r\n")
                .contains("\r\nConnection: close\r\n");
        assertThat(lookups).hasValue(1);
    }

    @Test
    void aNameThatRebindsAfterTheCheckCannotMoveTheConnection() throws Exception {
        // 127.0.0.2 stands for a public address (the guard allows it); 127.0.0.1 for the internal one a
        // rebinding DNS server would answer next. Both listen on the same port.
        InetAddress allowed = InetAddress.getByName("127.0.0.2");
        LocalHttpServer vetted = new LocalHttpServer((head, out) -> respond(out, "200 OK\r\nContent-Type: image/png", PNG),
                allowed, 0);
        toClose.add(vetted);
        LocalHttpServer internal = new LocalHttpServer((head, out) -> respond(out, "200 OK\r\nContent-Type: image/gif", PNG),
                LOOPBACK, vetted.port());
        toClose.add(internal);
        List<InetAddress> answers = new ArrayList<>(List.of(allowed, LOOPBACK, LOOPBACK, LOOPBACK));
        ImageFetcher fetcher = new ImageFetcher(QUICK, host -> {
            lookups.incrementAndGet();
            return List.of(answers.removeFirst());
        }, AddressGuard.allowingForTests(Set.of(allowed)));

        MediaSource.Base64 image = fetcher.fetch("http://rebind.test:" + vetted.port() + "/cat.png");

        assertThat(image.mediaType()).isEqualTo("image/png");
        assertThat(lookups).as("resolved once, by the fetcher, never again by the client").hasValue(1);
        assertThat(vetted.heads()).singleElement().satisfies(h -> assertThat(h).contains("\r\nHost: rebind.test:" + vetted.port()));
        assertThat(internal.accepted()).as("the rebound address was never connected to").isZero();
    }

    @Test
    void readsChunkedAndUnframedBodies() throws Exception {
        LocalHttpServer chunked = server((head, out) -> {
            out.write(ascii("HTTP/1.1 200 OK\r\nContent-Type: image/gif\r\nTransfer-Encoding: chunked\r\n\r\n"));
            out.write(ascii("6\r\nGIF89a\r\n3\r\nxyz\r\n0\r\nX-Trailer: 1\r\n\r\n"));
        });
        // chunk extensions are legal HTTP but unused by image servers, and the HTTP client refuses them
        LocalHttpServer extended = server((head, out) -> {
            out.write(ascii("HTTP/1.1 200 OK\r\nContent-Type: image/gif\r\nTransfer-Encoding: chunked\r\n\r\n"));
            out.write(ascii("6;ext=1\r\nGIF89a\r\n0\r\n\r\n"));
        });
        LocalHttpServer unframed = server((head, out) -> {
            out.write(ascii("HTTP/1.0 200 OK\r\nContent-Type: image/webp\r\n\r\n"));
            out.write(ascii("RIFFwebp"));
        });

        MediaSource.Base64 gif = testFetcher().fetch("http://images.test:" + chunked.port() + "/a.gif");
        MediaSource.Base64 webp = testFetcher().fetch("http://images.test:" + unframed.port() + "/a.webp");

        assertThat(new String(Base64.getDecoder().decode(gif.data()))).isEqualTo("GIF89axyz");
        assertThat(webp.mediaType()).isEqualTo("image/webp");
        assertThat(new String(Base64.getDecoder().decode(webp.data()))).isEqualTo("RIFFwebp");
        assertThat(reasonOf(testFetcher(), "http://images.test:" + extended.port() + "/a.gif")).isEqualTo(Reason.PROTOCOL);
    }

    @Test
    void followsRedirectsCheckingEachHop() throws Exception {
        AtomicInteger port = new AtomicInteger();
        LocalHttpServer s = server((head, out) -> {
            if (head.startsWith("GET /start ")) {
                respond(out, "302 Found\r\nLocation: /next", new byte[0]);
            } else if (head.startsWith("GET /next ")) {
                respond(out, "301 Moved\r\nLocation: http://images.test:" + port.get() + "/final.png", new byte[0]);
            } else {
                respond(out, "200 OK\r\nContent-Type: image/png", PNG);
            }
        });
        port.set(s.port());

        MediaSource.Base64 image = testFetcher().fetch("http://images.test:" + s.port() + "/start");

        assertThat(Base64.getDecoder().decode(image.data())).isEqualTo(PNG);
        assertThat(s.heads()).extracting(h -> h.lines().findFirst().orElseThrow())
                .containsExactly("GET /start HTTP/1.1", "GET /next HTTP/1.1", "GET /final.png HTTP/1.1");
        assertThat(lookups).hasValue(3); // every hop resolved and checked anew
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://10.0.0.1/cat.png", "http://169.254.169.254/latest/meta-data/", "http://127.0.0.2/",
            "http://[::1]/", "file:///etc/passwd"})
    void aRedirectIntoTheNetworkIsRefused(String location) throws Exception {
        LocalHttpServer s = server((head, out) -> respond(out, "302 Found\r\nLocation: " + location, new byte[0]));

        Reason reason = reasonOf(testFetcher(), "http://images.test:" + s.port() + "/cat.png");

        assertThat(reason).isIn(Reason.NOT_ALLOWED, Reason.BAD_URL);
        assertThat(s.accepted()).isEqualTo(1);
    }

    @Test
    void atMostThreeRedirects() throws Exception {
        LocalHttpServer s = server((head, out) -> respond(out, "307 Again\r\nLocation: /again", new byte[0]));

        assertThat(reasonOf(testFetcher(), "http://images.test:" + s.port() + "/again")).isEqualTo(Reason.TOO_MANY_REDIRECTS);
        assertThat(s.heads()).hasSize(4); // the first request and three redirects
    }

    // --- what the answer must be ---

    @Test
    void onlyImagesAreAccepted() throws Exception {
        LocalHttpServer html = server((head, out) -> respond(out, "200 OK\r\nContent-Type: text/html", ascii("<html>")));
        LocalHttpServer none = server((head, out) -> respond(out, "200 OK", PNG));
        LocalHttpServer bare = server((head, out) -> respond(out, "200 OK\r\nContent-Type: image/", PNG));

        assertThat(reasonOf(testFetcher(), "http://images.test:" + html.port() + "/")).isEqualTo(Reason.NOT_AN_IMAGE);
        assertThat(reasonOf(testFetcher(), "http://images.test:" + none.port() + "/")).isEqualTo(Reason.NOT_AN_IMAGE);
        assertThat(reasonOf(testFetcher(), "http://images.test:" + bare.port() + "/")).isEqualTo(Reason.NOT_AN_IMAGE);
    }

    @Test
    void anErrorStatusIsReported() throws Exception {
        LocalHttpServer s = server((head, out) -> respond(out, "404 Not Found\r\nContent-Type: image/png", PNG));

        assertThatThrownBy(() -> testFetcher().fetch("http://images.test:" + s.port() + "/gone.png"))
                .isInstanceOfSatisfying(ImageFetchException.class, e -> {
                    assertThat(e.reason()).isEqualTo(Reason.HTTP_STATUS);
                    assertThat(e.getMessage()).contains("404");
                });
    }

    @Test
    void theSizeIsCappedWhateverTheFraming() throws Exception {
        byte[] big = new byte[2048];
        LocalHttpServer declared = server((head, out) -> respond(out, "200 OK\r\nContent-Type: image/png", big));
        LocalHttpServer chunked = server((head, out) -> {
            out.write(ascii("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nTransfer-Encoding: chunked\r\n\r\n"));
            for (int i = 0; i < 8; i++) {
                out.write(ascii("100\r\n"));
                out.write(new byte[256]);
                out.write(ascii("\r\n"));
            }
            out.write(ascii("0\r\n\r\n"));
        });
        LocalHttpServer unframed = server((head, out) -> {
            out.write(ascii("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n"));
            out.write(big);
        });

        for (LocalHttpServer s : List.of(declared, chunked, unframed)) {
            assertThat(reasonOf(testFetcher(), "http://images.test:" + s.port() + "/big.png")).isEqualTo(Reason.TOO_LARGE);
        }
    }

    @Test
    void malformedAnswersAreProtocolErrors() throws Exception {
        LocalHttpServer s = server((head, out) -> out.write(ascii("SSH-2.0-OpenSSH\r\n\r\n")));
        assertThat(reasonOf(testFetcher(), "http://images.test:" + s.port() + "/")).isEqualTo(Reason.PROTOCOL);
    }

    // --- time ---

    @Test
    void aServerThatNeverAnswersCostsAtMostTheTimeout() throws Exception {
        LocalHttpServer s = server((head, out) -> Thread.sleep(10_000));
        long start = System.nanoTime();

        assertThat(reasonOf(testFetcher(), "http://images.test:" + s.port() + "/slow.png")).isEqualTo(Reason.TIMEOUT);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
    }

    @Test
    void aServerThatDripsBytesCannotStretchTheTimeout() throws Exception {
        LocalHttpServer s = server(LocalHttpServer.drip(1000, 50));
        long start = System.nanoTime();

        assertThat(reasonOf(testFetcher(), "http://images.test:" + s.port() + "/drip.png")).isEqualTo(Reason.TIMEOUT);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
    }

    @Test
    void aSlowNameLookupCountsAgainstTheTimeout() {
        ImageFetcher fetcher = new ImageFetcher(QUICK, host -> {
            try {
                Thread.sleep(10_000);
            } catch (InterruptedException e) {
                throw new UnknownHostException("interrupted");
            }
            return List.of(InetAddress.getByName("8.8.8.8"));
        }, AddressGuard.publicOnly());
        long start = System.nanoTime();

        assertThat(reasonOf(fetcher, "http://slow-dns.test/cat.png")).isEqualTo(Reason.TIMEOUT);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
    }

    @Test
    void anUnknownHostIsReported() {
        ImageFetcher fetcher = new ImageFetcher(QUICK, host -> {
            throw new UnknownHostException(host);
        }, AddressGuard.publicOnly());
        assertThat(reasonOf(fetcher, "http://nowhere.test/cat.png")).isEqualTo(Reason.UNRESOLVABLE);
    }

    @Test
    void aClosedPortIsUnreachable() throws IOException {
        int port;
        try (ServerSocket closed = new ServerSocket(0, 1, LOOPBACK)) {
            port = closed.getLocalPort();
        }
        assertThat(reasonOf(testFetcher(), "http://images.test:" + port + "/cat.png")).isEqualTo(Reason.UNREACHABLE);
    }
}
