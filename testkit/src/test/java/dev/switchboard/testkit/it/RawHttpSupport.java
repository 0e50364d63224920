package dev.switchboard.testkit.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Reading an HTTP/1.1 response off a raw socket, for the tests that send what no HTTP client would (bad framing,
 * oversized or cut bodies) and so must read the answer byte by byte themselves.
 */
public final class RawHttpSupport {
    private RawHttpSupport() {
    }

    /**
     * A response's status and headers (names in lower case; a repeated header keeps its last value).
     *
     * @param status  the status code of the status line
     * @param headers the header fields in arrival order
     */
    public record Head(int status, Map<String, String> headers) {
        public Head {
            headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        }

        /** The declared body length, 0 without {@code content-length}. */
        public int contentLength() {
            return Integer.parseInt(headers.getOrDefault("content-length", "0"));
        }
    }

    /** Reads the status line and the header fields, up to and including the empty line that ends them. */
    public static Head readHead(InputStream in) throws IOException {
        int status = Integer.parseInt(line(in).split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (String line = line(in); !line.isEmpty(); line = line(in)) {
            int colon = line.indexOf(':');
            headers.put(line.substring(0, colon).toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
        }
        return new Head(status, headers);
    }

    /** One line without its CRLF; fails when the connection ends first. */
    public static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("connection closed mid-line: " + b);
            }
            if (c != '\r') {
                b.write(c);
            }
        }
        return b.toString(StandardCharsets.ISO_8859_1);
    }
}
