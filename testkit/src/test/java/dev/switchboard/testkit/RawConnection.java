package dev.switchboard.testkit;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** One raw TCP connection to the fake, for framing details a high-level client hides. */
final class RawConnection implements AutoCloseable {

    /** A response as read off the wire; the body is de-chunked. */
    record Response(int status, Map<String, String> headers, String body) {
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RawConnection(FakeUpstream upstream) throws IOException {
        socket = new Socket("127.0.0.1", upstream.port());
        socket.setSoTimeout(5000);
        in = new BufferedInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    void write(String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** A POST with a Content-Length body. */
    static String post(String path, String body, String... extraHeaderLines) {
        StringBuilder request = new StringBuilder("POST " + path + " HTTP/1.1\r\nhost: fake\r\n");
        for (String line : extraHeaderLines) {
            request.append(line).append("\r\n");
        }
        int length = body.getBytes(StandardCharsets.UTF_8).length;
        return request.append("content-length: ").append(length).append("\r\n\r\n").append(body).toString();
    }

    Response read() throws IOException {
        String statusLine = line();
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (String line = line(); !line.isEmpty(); line = line()) {
            int colon = line.indexOf(':');
            headers.put(line.substring(0, colon).toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
        }
        if (status == 100) {
            return new Response(status, headers, "");
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if ("chunked".equals(headers.get("transfer-encoding"))) {
            for (int size = Integer.parseInt(line(), 16); size > 0; size = Integer.parseInt(line(), 16)) {
                body.write(in.readNBytes(size));
                line();
            }
            line();
        } else {
            body.write(in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0"))));
        }
        return new Response(status, headers, body.toString(StandardCharsets.UTF_8));
    }

    /** True when the server closed the connection (FIN) before sending another byte. */
    boolean closedByServer() throws IOException {
        return in.read() == -1;
    }

    private String line() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b == -1) {
                throw new EOFException("connection closed mid-line");
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
