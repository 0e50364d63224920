package dev.switchboard.wire.sse;

import java.nio.charset.StandardCharsets;

/**
 * Writes server-sent event frames. Each frame ends with the blank line that dispatches it, so frames
 * can be concatenated and flushed as they are. A payload containing line breaks is split over several
 * {@code data:} lines, which a conforming reader joins back with {@code \n}.
 */
public final class SseFrames {
    /** The chat-completions end marker, as a frame. */
    public static final String DONE = "data: [DONE]\n\n";

    private SseFrames() {
    }

    /** {@code data: <payload>} frame. */
    public static String data(String payload) {
        StringBuilder sb = new StringBuilder(payload.length() + 16);
        appendData(sb, payload);
        return sb.append('\n').toString();
    }

    /** {@code event: <name>} plus {@code data: <payload>} frame. */
    public static String event(String name, String payload) {
        if (name.indexOf('\n') >= 0 || name.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("event name must be one line");
        }
        StringBuilder sb = new StringBuilder(payload.length() + name.length() + 24);
        sb.append("event: ").append(name).append('\n');
        appendData(sb, payload);
        return sb.append('\n').toString();
    }

    /** A comment frame ({@code : text}), e.g. a keep-alive; readers ignore it. */
    public static String comment(String text) {
        StringBuilder sb = new StringBuilder(text.length() + 8);
        for (String l : text.split("\r\n|\r|\n", -1)) {
            sb.append(':').append(l.isEmpty() ? "" : " ").append(l).append('\n');
        }
        return sb.append('\n').toString();
    }

    /** The UTF-8 bytes of a frame (or of several concatenated frames). */
    public static byte[] bytes(String frames) {
        return frames.getBytes(StandardCharsets.UTF_8);
    }

    private static void appendData(StringBuilder sb, String payload) {
        int start = 0;
        int n = payload.length();
        for (int i = 0; i < n; i++) {
            char c = payload.charAt(i);
            if (c == '\n' || c == '\r') {
                sb.append("data: ").append(payload, start, i).append('\n');
                if (c == '\r' && i + 1 < n && payload.charAt(i + 1) == '\n') {
                    i++;
                }
                start = i + 1;
            }
        }
        sb.append("data: ").append(payload, start, n).append('\n');
    }
}
