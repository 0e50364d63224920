package dev.switchboard.wire.sse;

import dev.switchboard.wire.internal.UpstreamErrors;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Incremental parser of a {@code text/event-stream} body, after the WHATWG event-stream rules: feed it
 * byte chunks (split anywhere, even inside a UTF-8 sequence or between CR and LF) or whole lines, and it
 * returns each event once its terminating blank line arrived. Lines may end in LF, CRLF or CR; comment
 * lines ({@code : ping}) and {@code retry:} are ignored; one space after the colon is dropped; several
 * {@code data:} lines are joined with {@code \n}; a block without any {@code data:} line dispatches
 * nothing. Unlike a browser, {@link #finish()} also dispatches a last event that was not followed by a
 * blank line, because upstreams that close the connection right after their final line are common.
 *
 * <p>One instance per stream; not thread-safe. An event larger than the configured limit fails with a
 * retryable 502 rather than buffering without bound.
 */
public final class SseParser {
    /** Default cap on one event's bytes (a whole non-streamed answer can arrive as one event). */
    public static final int DEFAULT_MAX_EVENT_BYTES = 32 * 1024 * 1024;

    private final int maxEventBytes;
    private byte[] line = new byte[256];
    private int lineLength;
    private boolean lastWasCr;
    private boolean atStart = true;

    private final StringBuilder data = new StringBuilder();
    private boolean hasData;
    private String eventName;
    private String id;
    private int eventBytes;

    public SseParser() {
        this(DEFAULT_MAX_EVENT_BYTES);
    }

    public SseParser(int maxEventBytes) {
        if (maxEventBytes <= 0) {
            throw new IllegalArgumentException("maxEventBytes must be positive");
        }
        this.maxEventBytes = maxEventBytes;
    }

    /** Feeds a chunk of the body; returns the events it completed, in order. */
    public List<SseEvent> feed(byte[] chunk) {
        return feed(chunk, 0, chunk.length);
    }

    /** Feeds {@code length} bytes of {@code chunk} from {@code offset}. */
    public List<SseEvent> feed(byte[] chunk, int offset, int length) {
        List<SseEvent> out = new ArrayList<>(2);
        int end = offset + length;
        int i = offset;
        while (i < end) {
            byte b = chunk[i];
            if (b == '\n') {
                i++;
                if (lastWasCr) {
                    // The LF of a CRLF whose CR already ended the line.
                    lastWasCr = false;
                    continue;
                }
                endLine(out);
            } else if (b == '\r') {
                i++;
                endLine(out);
                lastWasCr = true;
            } else {
                lastWasCr = false;
                // The rest of the line as it is in this chunk, copied at once (byte by byte was a few percent of a
                // relayed stream's CPU).
                int runEnd = i + 1;
                while (runEnd < end && chunk[runEnd] != '\n' && chunk[runEnd] != '\r') {
                    runEnd++;
                }
                append(chunk, i, runEnd - i);
                i = runEnd;
            }
        }
        return out;
    }

    /** Feeds text (its UTF-8 bytes); see {@link #feed(byte[])}. */
    public List<SseEvent> feed(String text) {
        return feed(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Feeds one complete line without its terminator (as line-oriented HTTP clients deliver them);
     * returns the event it completed, if it was the blank line ending one.
     */
    public Optional<SseEvent> line(String text) {
        if (lineLength > 0) {
            throw new IllegalStateException("line() cannot be mixed with a partially fed byte line");
        }
        lastWasCr = false;
        String t = atStart ? stripBom(text) : text;
        atStart = false;
        eventBytes += t.length();
        checkSize();
        List<SseEvent> out = new ArrayList<>(1);
        processLine(t, out);
        return out.isEmpty() ? Optional.empty() : Optional.of(out.get(0));
    }

    /**
     * Ends the stream: processes a last line that had no terminator and dispatches a pending event that
     * had no blank line after it. The parser is reset and could be reused.
     */
    public List<SseEvent> finish() {
        List<SseEvent> out = new ArrayList<>(1);
        if (lineLength > 0) {
            endLine(out);
        }
        dispatch(out);
        lastWasCr = false;
        atStart = true;
        return out;
    }

    private void append(byte[] bytes, int from, int count) {
        eventBytes += count;
        checkSize();
        if (lineLength + count > line.length) {
            line = java.util.Arrays.copyOf(line, Math.max(line.length * 2, lineLength + count));
        }
        System.arraycopy(bytes, from, line, lineLength, count);
        lineLength += count;
    }

    private void checkSize() {
        if (eventBytes > maxEventBytes) {
            throw UpstreamErrors.broken("The upstream sent a server-sent event larger than " + maxEventBytes + " bytes.")
                    .toException();
        }
    }

    private void endLine(List<SseEvent> out) {
        // LF and CR never occur inside a multi-byte UTF-8 sequence, so a whole line decodes cleanly.
        String text = new String(line, 0, lineLength, StandardCharsets.UTF_8);
        lineLength = 0;
        if (atStart) {
            text = stripBom(text);
            atStart = false;
        }
        processLine(text, out);
    }

    private static String stripBom(String text) {
        return !text.isEmpty() && text.charAt(0) == '\uFEFF' ? text.substring(1) : text;
    }

    private void processLine(String text, List<SseEvent> out) {
        if (text.isEmpty()) {
            dispatch(out);
            return;
        }
        if (text.charAt(0) == ':') {
            return;
        }
        int colon = text.indexOf(':');
        String field;
        String value;
        if (colon < 0) {
            field = text;
            value = "";
        } else {
            field = text.substring(0, colon);
            int start = colon + 1;
            if (start < text.length() && text.charAt(start) == ' ') {
                start++;
            }
            value = text.substring(start);
        }
        switch (field) {
            case "data" -> {
                if (hasData) {
                    data.append('\n');
                }
                data.append(value);
                hasData = true;
            }
            case "event" -> eventName = value;
            case "id" -> {
                if (value.indexOf('\0') < 0) {
                    id = value;
                }
            }
            default -> {
                // retry: and unknown fields are ignored, as the event-stream rules require.
            }
        }
    }

    private void dispatch(List<SseEvent> out) {
        if (hasData) {
            out.add(new SseEvent(Optional.ofNullable(eventName), data.toString(), Optional.ofNullable(id)));
        }
        data.setLength(0);
        hasData = false;
        eventName = null;
        id = null;
        eventBytes = 0;
    }
}
