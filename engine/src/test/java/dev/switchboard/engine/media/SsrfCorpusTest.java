package dev.switchboard.engine.media;

import static dev.switchboard.engine.media.LocalHttpServer.ascii;
import static dev.switchboard.engine.media.LocalHttpServer.respond;
import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.engine.media.ImageFetchException.Reason;
import dev.switchboard.model.MediaSource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The SSRF corpus (docs/contracts.md §5) in one table, through the production guard with the resolver injected:
 * every spelling of this machine, every non-public range, every scheme but http(s), userinfo and fragment tricks,
 * names that rebind, redirects into the network. A listener on every local address of a free port counts the
 * connections that reach it, and the injected resolver records every address it handed out: nothing outside
 * 127.0.0.0/8 is ever connected to (the guard refuses first), and nothing on loopback either.
 */
class SsrfCorpusTest {
    private static final FetchLimits QUICK = new FetchLimits(3, 64 * 1024, Duration.ofMillis(800));
    private final List<AutoCloseable> toClose = new ArrayList<>();
    /** Connections accepted by the stray listener. */
    private final AtomicInteger stray = new AtomicInteger();
    private final Map<String, List<String>> handedOut = new ConcurrentHashMap<>();
    private ServerSocket listener;
    private int port;

    @BeforeAll
    static void warmUp() {
        LocalHttpServer.warmUpHttpClient();
    }

    @BeforeEach
    void listen() throws IOException {
        listener = new ServerSocket(0, 50, InetAddress.getByName("0.0.0.0"));
        port = listener.getLocalPort();
        Thread.ofVirtual().start(() -> {
            while (!listener.isClosed()) {
                try (Socket s = listener.accept()) {
                    stray.incrementAndGet();
                } catch (IOException e) {
                    return;
                }
            }
        });
    }

    @AfterEach
    void close() throws Exception {
        listener.close();
        for (AutoCloseable c : toClose) {
            c.close();
        }
    }

    /**
     * A resolver standing in for DNS: names under {@code .test} answer what the table says (a rebinding name answers
     * a public address first, the internal one next); literals resolve as the JDK reads them. Every answer is
     * recorded.
     */
    private ImageFetcher fetcher() {
        Map<String, List<String>> dns = Map.of(
                "internal.test", List.of("10.1.2.3"),
                "metadata.test", List.of("169.254.169.254"),
                "mixed.test", List.of("93.184.216.34", "192.168.0.1"),
                "v6mapped.test", List.of("::ffff:127.0.0.1"),
                "cgnat.test", List.of("100.100.100.200"),
                "multicast.test", List.of("239.255.255.250"),
                "zero.test", List.of("0.0.0.0"),
                "ula.test", List.of("fd12:3456:789a::1"));
        AtomicInteger rebinds = new AtomicInteger();
        HostResolver resolver = host -> {
            List<InetAddress> out = new ArrayList<>();
            if (host.equals("rebind.test")) {
                out.add(InetAddress.getByName(rebinds.getAndIncrement() == 0 ? "10.0.0.7" : "93.184.216.34"));
            } else if (dns.containsKey(host)) {
                for (String a : dns.get(host)) {
                    out.add(InetAddress.getByName(a));
                }
            } else {
                out.addAll(HostResolver.SYSTEM.resolve(host));
            }
            handedOut.computeIfAbsent(host, h -> new ArrayList<>()).addAll(out.stream().map(InetAddress::getHostAddress).toList());
            return out;
        };
        return new ImageFetcher(QUICK, resolver, AddressGuard.publicOnly());
    }

    private Reason refusal(ImageFetcher fetcher, String url) {
        try {
            MediaSource.Base64 fetched = fetcher.fetch(url);
            throw new AssertionError("fetched " + url + " (" + fetched.mediaType() + ")");
        } catch (ImageFetchException e) {
            assertThat(e.getMessage()).as(url).doesNotContain("127.0.0.1").doesNotContain("169.254");
            return e.reason();
        }
    }

    @Test
    void everySpellingOfAnInternalTargetIsRefusedWithoutAConnection() throws Exception {
        List<String> urls = new ArrayList<>();
        for (String host : List.of("127.0.0.1", "127.1", "127.0.1", "0", "0.0.0.0", "2130706433", "0x7f000001", "0x7f.1",
                "017700000001", "[::1]", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[0:0:0:0:0:0:0:1]", "localhost",
                "LOCALHOST", "localhost.", "127.127.127.127", "[::]", "zero.test", "v6mapped.test")) {
            urls.add("http://" + host + ":" + port + "/cat.png");
            urls.add("https://" + host + ":" + port + "/cat.png");
        }
        for (String host : List.of("10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254",
                "169.254.170.2", "100.64.0.1", "100.127.255.254", "224.0.0.1", "239.255.255.250", "255.255.255.255",
                "198.18.0.1", "192.0.0.1", "[fd00::1]", "[fe80::1]", "[ff02::1]", "[fc00::1]", "[64:ff9b::a9fe:a9fe]",
                "[2002:a00:1::]", "[::ffff:10.0.0.1]", "[::ffff:169.254.169.254]", "internal.test", "metadata.test",
                "mixed.test", "cgnat.test", "multicast.test", "ula.test", "rebind.test", "metadata.google.internal")) {
            urls.add("http://" + host + "/latest/meta-data/");
        }
        // userinfo and fragment tricks: the host the URL really names is internal, or credentials are sent
        urls.addAll(List.of("http://public.example@127.0.0.1:" + port + "/", "http://127.0.0.1:" + port + "#@public.example/",
                "http://127.0.0.1:" + port + "\\@public.example/", "http://user:pass@public.example/cat.png",
                "http://public.example%40127.0.0.1:" + port + "/", "http://[::1]:" + port + "#.png"));
        // schemes that are not http(s)
        urls.addAll(List.of("file:///etc/passwd", "file://localhost/etc/passwd", "gopher://127.0.0.1:" + port + "/_x",
                "jar:http://127.0.0.1:" + port + "/x.jar!/cat.png", "ftp://127.0.0.1:" + port + "/cat.png",
                "dict://127.0.0.1:" + port + "/", "ldap://127.0.0.1:" + port + "/", "netdoc:///etc/passwd",
                "data:image/png;base64,AAAA", "//127.0.0.1:" + port + "/cat.png", "cat.png", "http:///cat.png"));

        ImageFetcher fetcher = fetcher();
        for (String url : urls) {
            assertThat(refusal(fetcher, url)).as(url).isIn(Reason.NOT_ALLOWED, Reason.BAD_URL, Reason.UNRESOLVABLE);
        }
        Thread.sleep(200); // a connection attempt would be accepted by now
        assertThat(stray).as("connections that reached this machine's listener").hasValue(0);
        // every answer any name was resolved to holds an address the guard refuses (so none was connected to)
        handedOut.forEach((host, list) -> assertThat(list).as(host)
                .anySatisfy(a -> assertThat(AddressGuard.publicOnly().refusal(parse(a))).isPresent()));
    }

    @Test
    void redirectsOversizeDripFedNonImageAndCompressedAnswersAreRefusedOrCapped() throws Exception {
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
        Map<LocalHttpServer, String> servers = new java.util.LinkedHashMap<>();
        // 127.0.0.1 plays the public internet below, so the redirects aim at the other spellings of this machine
        for (String location : List.of("http://127.0.0.2:" + port + "/", "http://169.254.169.254/", "http://[::1]:" + port + "/",
                "http://2130706434:" + port + "/", "http://0x7f000002:" + port + "/", "http://[::ffff:127.0.0.2]:" + port + "/",
                "file:///etc/passwd", "gopher://127.0.0.2:" + port + "/", "jar:http://127.0.0.2:" + port + "/a.jar!/")) {
            servers.put(server((head, out) -> respond(out, "302 Found\r\nLocation: " + location, new byte[0])), location);
        }
        LocalHttpServer oversize = server((head, out) -> respond(out, "200 OK\r\nContent-Type: image/png", new byte[200_000]));
        LocalHttpServer drip = server(LocalHttpServer.drip(500, 20));
        LocalHttpServer html = server((head, out) -> respond(out, "200 OK\r\nContent-Type: text/html", ascii("<html>")));
        // a decompression bomb: 50 MB of zeros as 50 KB of gzip, labelled an image
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(gz)) {
            byte[] zeros = new byte[1 << 20];
            for (int i = 0; i < 50; i++) {
                z.write(zeros);
            }
        }
        byte[] bomb = gz.toByteArray();
        LocalHttpServer compressed = server((head, out) -> respond(out,
                "200 OK\r\nContent-Type: image/png\r\nContent-Encoding: gzip", bomb));

        // a fetcher whose only allowed "public" address is 127.0.0.1, so these loopback servers play the internet
        ImageFetcher fetcher = new ImageFetcher(QUICK, host -> host.equals("images.test")
                ? List.of(InetAddress.getByName("127.0.0.1")) : HostResolver.SYSTEM.resolve(host),
                AddressGuard.allowingForTests(Set.of(InetAddress.getByName("127.0.0.1"))));
        for (LocalHttpServer s : servers.keySet()) {
            assertThat(refusal(fetcher, "http://images.test:" + s.port() + "/cat.png")).as(servers.get(s)).isIn(Reason.NOT_ALLOWED, Reason.BAD_URL,
                    Reason.UNRESOLVABLE);
        }
        assertThat(refusal(fetcher, "http://images.test:" + oversize.port() + "/")).isEqualTo(Reason.TOO_LARGE);
        assertThat(refusal(fetcher, "http://images.test:" + drip.port() + "/")).isEqualTo(Reason.TIMEOUT);
        assertThat(refusal(fetcher, "http://images.test:" + html.port() + "/")).isEqualTo(Reason.NOT_AN_IMAGE);
        try {
            MediaSource.Base64 got = fetcher.fetch("http://images.test:" + compressed.port() + "/bomb.png");
            // taken as the bytes that came, never inflated
            assertThat(Base64.getDecoder().decode(got.data()).length).isLessThanOrEqualTo(bomb.length);
        } catch (ImageFetchException e) {
            assertThat(e.reason()).isIn(Reason.TOO_LARGE, Reason.NOT_AN_IMAGE, Reason.PROTOCOL);
        }
        assertThat(png).isNotEmpty();
        assertThat(stray).hasValue(0);
    }

    private LocalHttpServer server(LocalHttpServer.Handler handler) {
        LocalHttpServer s = new LocalHttpServer(handler);
        toClose.add(s);
        return s;
    }

    private static InetAddress parse(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
