package dev.switchboard.testkit;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * An open server-sent-events response body. Each call writes one HTTP chunk and flushes it, so the
 * client sees every frame as soon as it is written.
 *
 * <p>Contract: frames are written exactly as given plus the SSE framing; {@link #end()} writes the last
 * chunk and completes the response. Cutting a stream is done on the {@link RawExchange}.
 */
public final class SseStream {

    private final OutputStream out;
    private final Runnable onEnd;

    SseStream(OutputStream out, Runnable onEnd) {
        this.out = out;
        this.onEnd = onEnd;
    }

    /** Writes {@code data: <data>\n\n}; each line of a multi-line value gets its own {@code data:} line. */
    public void data(String data) throws IOException {
        raw(dataLines(data) + "\n");
    }

    /** Writes {@code event: <name>\ndata: <data>\n\n}, the named-event form Anthropic and Responses use. */
    public void event(String name, String data) throws IOException {
        raw("event: " + name + "\n" + dataLines(data) + "\n");
    }

    /** Writes {@code text} verbatim as one chunk, for frames the other methods cannot express. */
    public void raw(String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length == 0) {
            return; // a zero-length chunk would end the body
        }
        out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.write(bytes);
        out.write('\r');
        out.write('\n');
        out.flush();
    }

    /** Writes the last chunk: the body ends cleanly and the connection may serve another request. */
    public void end() throws IOException {
        out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        onEnd.run();
    }

    private static String dataLines(String data) {
        StringBuilder lines = new StringBuilder(data.length() + 8);
        for (String line : data.split("\n", -1)) {
            lines.append("data: ").append(line).append('\n');
        }
        return lines.toString();
    }
}
