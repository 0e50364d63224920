package dev.switchboard.engine.media;

import dev.switchboard.engine.media.ImageFetchException.Reason;
import dev.switchboard.model.MediaSource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.IDN;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches an image URL on a caller's behalf into inline base64, behind an SSRF guard (CONTRACTS.md §5):
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
 * It speaks just enough HTTP/1.1 for that (one GET per connection, {@code Connection: close}, identity or
 * chunked bodies) on a plain socket, because a pooled client would resolve names itself and reuse
 * connections, which is exactly what pinning must rule out. This is not upstream provider traffic, which
 * goes through {@code UpstreamClient} only. Thread-safe; blocking (meant for virtual threads).
 */
public final class ImageFetcher {
    private static final Logger LOG = LoggerFactory.getLogger(ImageFetcher.class);
    private static final int MAX_URL_LENGTH = 8192;
    private static final int MAX_LINE = 8192;
    private static final int MAX_HEADER_LINES = 100;

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

    /** Where to connect: scheme, the host as written (for Host and TLS) and as resolved, port. */
    private record Target(URI uri, boolean tls, String hostHeader, String host, int port) {
        String requestTarget() {
            String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
            return uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
        }
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
        boolean tls = scheme.equals("https");
        int port = uri.getPort() == -1 ? (tls ? 443 : 80) : uri.getPort();
        String bare = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        String hostHeader = uri.getPort() == -1 ? host : host + ":" + port;
        return new Target(uri, tls, hostHeader, bare, port);
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

    private Response get(Target target, List<InetAddress> addresses, long deadline) throws ImageFetchException {
        try (Socket socket = connect(target, addresses, deadline)) {
            InputStream in = new DeadlineInput(socket, deadline);
            OutputStream out = socket.getOutputStream();
            String request = "GET " + target.requestTarget() + " HTTP/1.1\r\n"
                    + "Host: " + target.hostHeader() + "\r\n"
                    + "User-Agent: Switchboard-ImageFetcher\r\n"
                    + "Accept: image/*\r\n"
                    + "Accept-Encoding: identity\r\n"
                    + "Connection: close\r\n\r\n";
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return read(in);
        } catch (SocketTimeoutException e) {
            throw timeout();
        } catch (IOException e) {
            if (System.nanoTime() - deadline >= 0) {
                throw timeout();
            }
            throw new ImageFetchException(Reason.UNREACHABLE, "the image could not be downloaded");
        }
    }

    /** A connection to the first validated address that answers; TLS on top for https. */
    private static Socket connect(Target target, List<InetAddress> addresses, long deadline) throws IOException {
        IOException last = null;
        for (InetAddress address : addresses) {
            Socket socket = new Socket();
            try {
                socket.connect(new InetSocketAddress(address, target.port()), millis(deadline));
                if (!target.tls()) {
                    return socket;
                }
                socket.setSoTimeout(millis(deadline));
                SSLSocket tls = (SSLSocket) ((SSLSocketFactory) SSLSocketFactory.getDefault())
                        .createSocket(socket, target.host(), target.port(), true);
                SSLParameters params = tls.getSSLParameters();
                params.setEndpointIdentificationAlgorithm("HTTPS"); // the certificate must name the original host
                sniName(target.host()).ifPresent(n -> params.setServerNames(List.of(n)));
                tls.setSSLParameters(params);
                tls.startHandshake();
                return tls;
            } catch (SocketTimeoutException e) {
                socket.close();
                throw e;
            } catch (IOException e) {
                socket.close();
                last = e;
            }
        }
        throw last == null ? new IOException("no address") : last;
    }

    /** The TLS server name of a host name; none for an IP literal (SNI carries names only). */
    private static Optional<SNIHostName> sniName(String host) {
        if (host.contains(":") || host.chars().allMatch(c -> c == '.' || Character.isDigit(c))) {
            return Optional.empty();
        }
        try {
            return Optional.of(new SNIHostName(IDN.toASCII(host)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** A 200 image (with {@code location} empty) or a redirect (with it). */
    private record Response(Optional<String> location, String mediaType, byte[] body) {
    }

    private Response read(InputStream in) throws IOException, ImageFetchException {
        String statusLine = line(in);
        String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
            throw protocol();
        }
        int status;
        try {
            status = Integer.parseInt(parts[1]);
        } catch (NumberFormatException e) {
            throw protocol();
        }
        Map<String, String> headers = headers(in);
        if (status == 301 || status == 302 || status == 303 || status == 307 || status == 308) {
            String location = headers.get("location");
            if (location == null || location.isBlank()) {
                throw new ImageFetchException(Reason.HTTP_STATUS, "answered HTTP " + status + " without a location");
            }
            return new Response(Optional.of(location.strip()), "", new byte[0]);
        }
        if (status != 200) {
            throw new ImageFetchException(Reason.HTTP_STATUS, "answered HTTP " + status);
        }
        String contentType = headers.getOrDefault("content-type", "");
        String mediaType = contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        if (!mediaType.startsWith("image/") || mediaType.length() == "image/".length()) {
            throw new ImageFetchException(Reason.NOT_AN_IMAGE, "the URL did not return an image (content type "
                    + (mediaType.isEmpty() ? "missing" : "'" + mediaType + "'") + ")");
        }
        return new Response(Optional.empty(), mediaType, body(in, headers));
    }

    private byte[] body(InputStream in, Map<String, String> headers) throws IOException, ImageFetchException {
        Capped out = new Capped(limits.maxBytes());
        if (headers.getOrDefault("transfer-encoding", "").toLowerCase(Locale.ROOT).contains("chunked")) {
            while (true) {
                String sizeLine = line(in).split(";", 2)[0].strip();
                long size;
                try {
                    size = Long.parseLong(sizeLine, 16);
                } catch (NumberFormatException e) {
                    throw protocol();
                }
                if (size < 0) {
                    throw protocol();
                }
                if (size == 0) {
                    headers(in); // trailers
                    return out.toByteArray();
                }
                out.copy(in, size);
                line(in);
            }
        }
        String length = headers.get("content-length");
        if (length != null) {
            long n;
            try {
                n = Long.parseLong(length.strip());
            } catch (NumberFormatException e) {
                throw protocol();
            }
            if (n < 0) {
                throw protocol();
            }
            out.copy(in, n); // refuses up front when n is over the cap
            return out.toByteArray();
        }
        out.copy(in, Long.MAX_VALUE);
        return out.toByteArray();
    }

    /** A body buffer that refuses to grow past the cap. */
    private final class Capped extends ByteArrayOutputStream {
        private final long max;

        Capped(long max) {
            this.max = max;
        }

        /** Copies {@code n} bytes (or up to the end of the stream when {@code n} is unbounded). */
        void copy(InputStream in, long n) throws IOException, ImageFetchException {
            boolean toEnd = n == Long.MAX_VALUE;
            if (!toEnd && count + n > max) {
                throw tooLarge();
            }
            byte[] buffer = new byte[16 * 1024];
            long left = n;
            while (left > 0) {
                int r = in.read(buffer, 0, (int) Math.min(buffer.length, left));
                if (r < 0) {
                    if (toEnd) {
                        return;
                    }
                    throw new IOException("the body ended early");
                }
                if (count + r > max) {
                    throw tooLarge();
                }
                write(buffer, 0, r);
                left -= r;
            }
        }

        private ImageFetchException tooLarge() {
            return new ImageFetchException(Reason.TOO_LARGE, "the image is larger than " + (max / (1024 * 1024)) + " MB");
        }
    }

    private static Map<String, String> headers(InputStream in) throws IOException, ImageFetchException {
        Map<String, String> headers = new HashMap<>();
        for (int i = 0; i <= MAX_HEADER_LINES; i++) {
            String line = line(in);
            if (line.isEmpty()) {
                return headers;
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw protocol();
            }
            headers.putIfAbsent(line.substring(0, colon).strip().toLowerCase(Locale.ROOT), line.substring(colon + 1).strip());
        }
        throw protocol();
    }

    /** One CRLF- (or LF-) terminated line, without its terminator. */
    private static String line(InputStream in) throws IOException, ImageFetchException {
        StringBuilder sb = new StringBuilder();
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("the connection closed inside the headers");
            }
            if (c == '\n') {
                int len = sb.length();
                return len > 0 && sb.charAt(len - 1) == '\r' ? sb.substring(0, len - 1) : sb.toString();
            }
            if (sb.length() == MAX_LINE) {
                throw protocol();
            }
            sb.append((char) c);
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

    private static int millis(long deadline) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(remaining(deadline))));
    }

    /** Socket reads that never wait past the fetch's deadline, however slowly the server drips. */
    private static final class DeadlineInput extends InputStream {
        private final Socket socket;
        private final InputStream in;
        private final long deadline;
        private final byte[] buffer = new byte[8192];
        private int pos;
        private int limit;

        DeadlineInput(Socket socket, long deadline) throws IOException {
            this.socket = socket;
            this.in = socket.getInputStream();
            this.deadline = deadline;
        }

        @Override
        public int read() throws IOException {
            if (pos == limit && !fill()) {
                return -1;
            }
            return buffer[pos++] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (pos == limit && !fill()) {
                return -1;
            }
            int n = Math.min(len, limit - pos);
            System.arraycopy(buffer, pos, b, off, n);
            pos += n;
            return n;
        }

        private boolean fill() throws IOException {
            if (System.nanoTime() - deadline >= 0) {
                throw new SocketTimeoutException("fetch deadline passed");
            }
            socket.setSoTimeout(millis(deadline));
            int n = in.read(buffer, 0, buffer.length);
            if (n < 0) {
                return false;
            }
            pos = 0;
            limit = n;
            return true;
        }
    }
}
