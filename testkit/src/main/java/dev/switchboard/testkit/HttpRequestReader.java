package dev.switchboard.testkit;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Reads one HTTP/1.1 request from a connection: request line, headers, and a body framed by
 * {@code Content-Length} or by chunked transfer coding (trailers are read and dropped).
 */
final class HttpRequestReader {

    private static final int MAX_LINE = 64 * 1024;
    private static final int MAX_HEADERS = 256;
    private static final int MAX_BODY = 64 * 1024 * 1024;

    /** The request cannot be parsed; the connection should get a 400 and be closed. */
    static final class MalformedRequestException extends IOException {
        MalformedRequestException(String message) {
            super(message);
        }
    }

    private HttpRequestReader() {
    }

    /**
     * Reads the next request. Empty when the peer closed the connection cleanly between requests.
     * {@code out} is used only to send {@code 100 Continue} to clients that wait for it.
     */
    static Optional<RecordedRequest> read(InputStream in, OutputStream out) throws IOException {
        String requestLine = readLine(in);
        // RFC 9112 asks servers to ignore empty lines before a request line.
        while (requestLine != null && requestLine.isEmpty()) {
            requestLine = readLine(in);
        }
        if (requestLine == null) {
            return Optional.empty();
        }
        String[] parts = requestLine.split(" ");
        if (parts.length != 3 || !parts[2].startsWith("HTTP/1.")) {
            throw new MalformedRequestException("bad request line: " + requestLine);
        }
        Map<String, List<String>> headers = readHeaders(in);

        if (first(headers, "expect").filter("100-continue"::equalsIgnoreCase).isPresent()) {
            out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        }
        byte[] body = readBody(in, headers);

        String target = parts[1];
        int question = target.indexOf('?');
        String path = question < 0 ? target : target.substring(0, question);
        String query = question < 0 ? "" : target.substring(question + 1);
        return Optional.of(RecordedRequest.of(parts[0], path, query, headers, body));
    }

    private static Map<String, List<String>> readHeaders(InputStream in) throws IOException {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (int count = 0; ; count++) {
            String line = readLine(in);
            if (line == null) {
                throw new EOFException("connection closed inside the header section");
            }
            if (line.isEmpty()) {
                return headers;
            }
            if (count == MAX_HEADERS) {
                throw new MalformedRequestException("too many header fields");
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new MalformedRequestException("bad header line: " + line);
            }
            String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            headers.computeIfAbsent(name, k -> new ArrayList<>()).add(line.substring(colon + 1).trim());
        }
    }

    private static byte[] readBody(InputStream in, Map<String, List<String>> headers) throws IOException {
        // Transfer-Encoding wins over Content-Length (RFC 9112 6.3).
        boolean chunked = first(headers, "transfer-encoding")
                .map(v -> v.toLowerCase(Locale.ROOT).contains("chunked")).orElse(false);
        if (chunked) {
            return readChunked(in);
        }
        Optional<String> contentLength = first(headers, "content-length");
        if (contentLength.isEmpty()) {
            return new byte[0];
        }
        long length;
        try {
            length = Long.parseLong(contentLength.get());
        } catch (NumberFormatException e) {
            throw new MalformedRequestException("bad content-length: " + contentLength.get());
        }
        if (length < 0 || length > MAX_BODY) {
            throw new MalformedRequestException("unacceptable content-length: " + length);
        }
        return readExactly(in, (int) length);
    }

    private static byte[] readChunked(InputStream in) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = readLine(in);
            if (sizeLine == null) {
                throw new EOFException("connection closed inside a chunked body");
            }
            int semicolon = sizeLine.indexOf(';'); // chunk extensions carry nothing we need
            String hex = (semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim();
            int size;
            try {
                size = Integer.parseInt(hex, 16);
            } catch (NumberFormatException e) {
                throw new MalformedRequestException("bad chunk size: " + sizeLine);
            }
            if (size < 0 || body.size() + (long) size > MAX_BODY) {
                throw new MalformedRequestException("chunked body too large");
            }
            if (size == 0) {
                readHeaders(in); // trailer section, ends with an empty line
                return body.toByteArray();
            }
            body.write(readExactly(in, size));
            String end = readLine(in);
            if (end == null || !end.isEmpty()) {
                throw new MalformedRequestException("chunk not followed by CRLF");
            }
        }
    }

    private static byte[] readExactly(InputStream in, int length) throws IOException {
        byte[] bytes = in.readNBytes(length);
        if (bytes.length != length) {
            throw new EOFException("body ended after " + bytes.length + " of " + length + " bytes");
        }
        return bytes;
    }

    /** A line without its CRLF (or bare LF); null at end of stream before any byte. */
    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(128);
        int b;
        while ((b = in.read()) != -1) {
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                int length = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
            }
            if (line.size() == MAX_LINE) {
                throw new MalformedRequestException("line longer than " + MAX_LINE + " bytes");
            }
            line.write(b);
        }
        if (line.size() == 0) {
            return null;
        }
        throw new EOFException("connection closed inside a line");
    }

    private static Optional<String> first(Map<String, List<String>> headers, String name) {
        return headers.getOrDefault(name, List.of()).stream().findFirst();
    }
}
