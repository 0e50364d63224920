package dev.switchboard.engine.media;

import dev.switchboard.engine.media.ImageFetchException.Reason;
import dev.switchboard.model.MediaSource;
import io.helidon.common.buffers.DataReader;
import io.helidon.http.HeaderNames;
import io.helidon.webclient.api.DnsAddressLookup;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.api.Proxy;
import io.helidon.webclient.api.WebClient;
import io.helidon.webclient.spi.DnsResolver;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches an image URL on a caller's behalf into inline base64, behind an SSRF guard (docs/contracts.md §5):
 * <ul>
 *   <li>only absolute {@code http}/{@code https} URLs without user info;
 *   <li>the host is resolved once, and refused when ANY of its addresses is not public
 *       ({@link AddressGuard}); the connection goes to a validated address (pinned: no second lookup
 *       that DNS rebinding could answer differently), with the original {@code Host} header, and for
 *       https the certificate is checked against the original host name;
 *   <li>redirects (301, 302, 303, 307, 308) are followed by hand, at most {@link FetchLimits#maxRedirects},
 *       each new location checked again from the start;
 *   <li>the answer must be a 200 whose content type is {@code image/*}; the body is capped at
 *       {@link FetchLimits#maxBytes} and the whole fetch at {@link FetchLimits#timeout}.
 * </ul>
 * The transport is Helidon's WebClient with its DNS hook answering the validated address (one client per
 * request, no shared connection cache, {@code Connection: close}), so no connection can go anywhere the
 * guard did not allow. This is not upstream provider traffic, which goes through {@code UpstreamClient}
 * only. Thread-safe; blocking (meant for virtual threads, whose socket reads the deadline can interrupt).
 */
public final class ImageFetcher {
    private static final Logger LOG = LoggerFactory.getLogger(ImageFetcher.class);
    private static final int MAX_URL_LENGTH = 8192;

    private final FetchLimits limits;
    private final HostResolver resolver;
    private final AddressGuard guard;

    /** The production fetcher: system resolver, public addresses only. */
    public ImageFetcher(FetchLimits limits) {
        this(limits, HostResolver.SYSTEM, AddressGuard.publicOnly());
    }

    /**
     * A fetcher with its own resolver and guard. Tests pass a resolver that maps names to loopback and
     * {@link AddressGuard#allowingForTests} to reach a local server; production code uses
     * {@link #ImageFetcher(FetchLimits)}.
     */
    public ImageFetcher(FetchLimits limits, HostResolver resolver, AddressGuard guard) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.resolver = Objects.requireNonNull(resolver, "resolver");
        this.guard = Objects.requireNonNull(guard, "guard");
    }

    /** The image at {@code url}, as base64 with the media type the server declared. */
    public MediaSource.Base64 fetch(String url) throws ImageFetchException {
        ClientClasses.load();
        long deadline = System.nanoTime() + limits.timeout().toNanos();
        URI uri = parse(url);
        for (int redirects = 0; ; redirects++) {
            Target target = target(uri);
            List<InetAddress> addresses = resolve(target, deadline);
            Response response = get(target, addresses, deadline);
            if (response.location().isEmpty()) {
                return new MediaSource.Base64(response.mediaType(), Base64.getEncoder().encodeToString(response.body()));
            }
            if (redirects == limits.maxRedirects()) {
                throw new ImageFetchException(Reason.TOO_MANY_REDIRECTS,
                        "redirected more than " + limits.maxRedirects() + " times");
            }
            try {
                uri = uri.resolve(new URI(response.location().get()));
            } catch (URISyntaxException | IllegalArgumentException e) {
                throw new ImageFetchException(Reason.BAD_URL, "redirected to an invalid URL");
            }
        }
    }

    /** What to fetch (without its fragment, which never goes on the wire) and the host to resolve. */
    private record Target(URI uri, String host) {
    }

    private static URI parse(String url) throws ImageFetchException {
        if (url.length() > MAX_URL_LENGTH) {
            throw new ImageFetchException(Reason.BAD_URL, "the URL is longer than " + MAX_URL_LENGTH + " characters");
        }
        try {
            return new URI(url);
        } catch (URISyntaxException e) {
            throw new ImageFetchException(Reason.BAD_URL, "not a valid URL");
        }
    }

    private static Target target(URI uri) throws ImageFetchException {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new ImageFetchException(Reason.BAD_URL, "only http and https URLs can be fetched");
        }
        if (uri.getRawUserInfo() != null) {
            throw new ImageFetchException(Reason.BAD_URL, "URLs with user info (credentials) are not fetched");
        }
        String host = uri.getHost();
        if (host == null || host.isEmpty()) {
            throw new ImageFetchException(Reason.BAD_URL, "the URL has no valid host");
        }
        String bare = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        String text = uri.toString();
        int fragment = text.indexOf('#');
        return new Target(URI.create(fragment < 0 ? text : text.substring(0, fragment)), bare);
    }

    /** Every address of the host, all of them checked; the lookup counts against the deadline. */
    private List<InetAddress> resolve(Target target, long deadline) throws ImageFetchException {
        FutureTask<List<InetAddress>> lookup = new FutureTask<>(() -> resolver.resolve(target.host()));
        Thread.ofVirtual().name("image-fetch-dns").start(lookup);
        List<InetAddress> addresses;
        try {
            addresses = lookup.get(remaining(deadline), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            lookup.cancel(true);
            throw timeout();
        } catch (ExecutionException e) {
            throw new ImageFetchException(Reason.UNRESOLVABLE, "the host could not be resolved");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw timeout();
        }
        if (addresses.isEmpty()) {
            throw new ImageFetchException(Reason.UNRESOLVABLE, "the host could not be resolved");
        }
        for (InetAddress a : addresses) {
            Optional<AddressKind> refused = guard.refusal(a);
            if (refused.isPresent()) {
                // the operator may see what the name resolved to; the caller may not
                LOG.atInfo().addKeyValue("host", target.host()).addKeyValue("address_kind", refused.get().name())
                        .log("image fetch refused: the host resolves to a non-public address");
                throw new ImageFetchException(Reason.NOT_ALLOWED,
                        "the URL is not allowed: images are fetched only from public internet addresses");
            }
        }
        return addresses;
    }

    /** The answer from the first validated address that accepts a connection. */
    private Response get(Target target, List<InetAddress> addresses, long deadline) throws ImageFetchException {
        ImageFetchException unreachable = new ImageFetchException(Reason.UNREACHABLE, "the image could not be downloaded");
        for (InetAddress address : addresses) {
            try {
                return get(target, address, deadline);
            } catch (Unconnectable e) {
                // the next validated address of the same name may answer
            }
        }
        throw unreachable;
    }

    /** Thrown when no connection could be made to one address: the caller tries the next one. */
    private static final class Unconnectable extends Exception {
        Unconnectable() {
            super(null, null, false, false);
        }
    }

    /**
     * One GET on a client whose DNS hook answers {@code address} for the target's host and nothing else:
     * the connection can only go to that validated address, while the request and TLS (certificate and
     * SNI) keep the original host name. A client per request, no shared connection cache and
     * {@code Connection: close}, so no connection outlives the check that allowed it.
     */
    private Response get(Target target, InetAddress address, long deadline) throws ImageFetchException, Unconnectable {
        WebClient client = WebClient.builder()
                .dnsResolver(new PinnedResolver(target.host(), address))
                .shareConnectionCache(false)
                .followRedirects(false)
                .proxy(Proxy.noProxy())
                .socketOptions(o -> o.connectTimeout(Duration.ofNanos(remaining(deadline))))
                .build();
        Thread caller = Thread.currentThread();
        AtomicBoolean expired = new AtomicBoolean();
        // socket reads of a virtual thread are interruptible: the deadline holds however slowly bytes drip
        Thread watchdog = Thread.ofVirtual().name("image-fetch-deadline").start(() -> {
            try {
                TimeUnit.NANOSECONDS.sleep(remaining(deadline));
                expired.set(true);
                caller.interrupt();
            } catch (InterruptedException done) {
                // the fetch finished first
            }
        });
        try (HttpClientResponse response = client.get().uri(target.uri())
                .keepAlive(false)
                .readTimeout(Duration.ofNanos(remaining(deadline)))
                .header(HeaderNames.USER_AGENT, "Switchboard-ImageFetcher")
                .header(HeaderNames.ACCEPT, "image/*")
                .header(HeaderNames.ACCEPT_ENCODING, "identity")
                .request()) {
            return read(response, deadline);
        } catch (RuntimeException e) {
            if (expired.get() || System.nanoTime() - deadline >= 0 || cause(e, SocketTimeoutException.class)) {
                throw timeout();
            }
            if (cause(e, ConnectException.class) || cause(e, NoRouteToHostException.class)) {
                throw new Unconnectable();
            }
            if (cause(e, IOException.class)) {
                throw new ImageFetchException(Reason.UNREACHABLE, "the image could not be downloaded");
            }
            throw protocol();
        } finally {
            watchdog.interrupt();
            try {
                watchdog.join();
            } catch (InterruptedException e) {
                // ours, from the deadline: cleared below
            }
            if (expired.get()) {
                Thread.interrupted();
            }
        }
    }

    private static boolean cause(Throwable e, Class<? extends Throwable> kind) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (kind.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    /** A 200 image (with {@code location} empty) or a redirect (with it). */
    private record Response(Optional<String> location, String mediaType, byte[] body) {
    }

    private Response read(HttpClientResponse response, long deadline) throws ImageFetchException {
        int status = response.status().code();
        if (status == 301 || status == 302 || status == 303 || status == 307 || status == 308) {
            Optional<String> location = response.headers().first(HeaderNames.LOCATION).filter(l -> !l.isBlank());
            if (location.isEmpty()) {
                throw new ImageFetchException(Reason.HTTP_STATUS, "answered HTTP " + status + " without a location");
            }
            return new Response(Optional.of(location.get().strip()), "", new byte[0]);
        }
        if (status != 200) {
            throw new ImageFetchException(Reason.HTTP_STATUS, "answered HTTP " + status);
        }
        String contentType = response.headers().first(HeaderNames.CONTENT_TYPE).orElse("");
        String mediaType = contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        if (!mediaType.startsWith("image/") || mediaType.length() == "image/".length()) {
            throw new ImageFetchException(Reason.NOT_AN_IMAGE, "the URL did not return an image (content type "
                    + (mediaType.isEmpty() ? "missing" : "'" + mediaType + "'") + ")");
        }
        OptionalLong length = response.headers().contentLength();
        if (length.isPresent() && length.getAsLong() > limits.maxBytes()) {
            throw tooLarge();
        }
        boolean closeDelimited = length.isEmpty() && !response.headers().contains(HeaderNames.TRANSFER_ENCODING);
        return new Response(Optional.empty(), mediaType, body(response.inputStream(), closeDelimited, deadline));
    }

    /** The body, refused as soon as it passes the cap, and never read past the deadline. */
    private byte[] body(InputStream in, boolean closeDelimited, long deadline) throws ImageFetchException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[16 * 1024];
        try {
            int n;
            while ((n = read(in, buffer, closeDelimited)) >= 0) {
                if (out.size() + (long) n > limits.maxBytes()) {
                    throw tooLarge();
                }
                out.write(buffer, 0, n);
                if (System.nanoTime() - deadline >= 0) {
                    throw timeout();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /**
     * One read. A body without length or chunking ends when the server closes the connection, which
     * Helidon's client reports as "insufficient data" rather than the end of the stream.
     */
    private static int read(InputStream in, byte[] buffer, boolean closeDelimited) throws IOException {
        try {
            return in.read(buffer);
        } catch (DataReader.InsufficientDataAvailableException e) {
            if (closeDelimited) {
                return -1;
            }
            throw e;
        }
    }

    private ImageFetchException tooLarge() {
        return new ImageFetchException(Reason.TOO_LARGE, "the image is larger than " + (limits.maxBytes() / (1024 * 1024)) + " MB");
    }

    /**
     * The first client built in a process loads and initialises Helidon's client classes (about a second
     * on a cold JVM); that one-time cost is the gateway's own, so it is paid before a fetch's deadline
     * starts, which bounds only the remote server.
     */
    private static final class ClientClasses {
        static {
            WebClient.builder().proxy(Proxy.noProxy()).shareConnectionCache(false).build();
        }

        static void load() {
            // initialising this class is the point
        }
    }

    /** The DNS hook of one request's client: the validated address for the validated host, nothing else. */
    private record PinnedResolver(String host, InetAddress address) implements DnsResolver {
        @Override
        public InetAddress resolveAddress(String hostname, DnsAddressLookup lookup) {
            String asked = hostname.startsWith("[") ? hostname.substring(1, hostname.length() - 1) : hostname;
            if (!asked.equalsIgnoreCase(host)) {
                throw new IllegalStateException("the pinned client was asked for another host");
            }
            try {
                // the host name rides along for TLS (certificate check, SNI); no lookup happens here
                return InetAddress.getByAddress(host, address.getAddress());
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public boolean useDefaultJavaResolver() {
            return false;
        }
    }

    private static ImageFetchException protocol() {
        return new ImageFetchException(Reason.PROTOCOL, "the image server sent a malformed HTTP response");
    }

    private ImageFetchException timeout() {
        return new ImageFetchException(Reason.TIMEOUT, "the image took longer than " + limits.timeout().toMillis()
                + " ms to fetch");
    }

    private static long remaining(long deadline) {
        return Math.max(1, deadline - System.nanoTime());
    }
}
