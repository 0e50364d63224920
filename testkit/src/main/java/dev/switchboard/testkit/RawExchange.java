package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The response side of one request on one connection, with the faults a real network can show.
 *
 * <p>Contract: call exactly one of the answering methods once: {@link #respond}, {@link #respondJson},
 * {@link #openSse} (then finish with {@link SseStream#end()}), {@link #respondTruncatedThenReset},
 * {@link #rawOutput}, {@link #resetConnection}, {@link #closeConnection} or {@link #hangUntilClosed}.
 * A second call throws {@link IllegalStateException}. Only a complete, framed response (the first three,
 * finished) keeps the connection open for the next request; every other way ends it. If nothing was
 * answered when the handler returns, the server sends a 500 so a forgotten answer is loud, not a hang.
 * A response that carries {@code connection: close} also ends the connection once complete.
 */
public final class RawExchange {

    private enum State { NEW, STREAMING, COMPLETE, DETACHED }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final boolean clientAskedToClose;
    private boolean responseSaysClose;
    private State state = State.NEW;

    RawExchange(Socket socket, InputStream in, OutputStream out, boolean clientAskedToClose) {
        this.socket = socket;
        this.in = in;
        this.out = out;
        this.clientAskedToClose = clientAskedToClose;
    }

    /** Sends a complete response framed by {@code Content-Length}; header names are sent as given. */
    public void respond(int status, Map<String, String> headers, byte[] body) throws IOException {
        claim(State.COMPLETE);
        writeHead(status, withLength(headers, body.length));
        out.write(body);
        out.flush();
    }

    /** Sends a complete {@code application/json} response. */
    public void respondJson(int status, JsonNode body) throws IOException {
        respondJson(status, Map.of(), body);
    }

    /** Sends a complete {@code application/json} response with extra headers. */
    public void respondJson(int status, Map<String, String> headers, JsonNode body) throws IOException {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("content-type", "application/json");
        all.putAll(headers);
        respond(status, all, TestkitJson.bytes(body));
    }

    /**
     * Starts a {@code text/event-stream} response with chunked transfer coding. The response is complete
     * only after {@link SseStream#end()}; the stream may instead be cut by {@link #resetConnection()} or
     * {@link #closeConnection()}.
     */
    public SseStream openSse(int status) throws IOException {
        return openSse(status, Map.of());
    }

    /** As {@link #openSse(int)}, with extra headers. */
    public SseStream openSse(int status, Map<String, String> headers) throws IOException {
        claim(State.STREAMING);
        Map<String, String> all = new LinkedHashMap<>();
        all.put("content-type", "text/event-stream; charset=utf-8");
        all.put("cache-control", "no-cache");
        all.putAll(headers);
        all.put("transfer-encoding", "chunked");
        writeHead(status, all);
        out.flush();
        return new SseStream(out, () -> {
            if (state == State.STREAMING) {
                state = State.COMPLETE;
            }
        });
    }

    /**
     * A whole 200 answer as the scenario wants it told: {@code cut}, half of it and then a reset
     * ({@link #respondTruncatedThenReset}); {@code empty}, no body at all; otherwise all of it.
     */
    public void respondWhole(Map<String, String> headers, byte[] body, boolean cut, boolean empty) throws IOException {
        if (cut) {
            respondTruncatedThenReset(200, headers, body, body.length / 2);
        } else if (empty) {
            respond(200, headers, new byte[0]);
        } else {
            respond(200, headers, body);
        }
    }

    /**
     * Announces the full {@code Content-Length} of {@code body} but sends only its first
     * {@code sentBytes} bytes, then resets the connection: a response cut in the middle. It pauses briefly
     * before the reset so the client has taken in the partial body, which makes the cut point deterministic.
     */
    public void respondTruncatedThenReset(int status, Map<String, String> headers, byte[] body, int sentBytes)
            throws IOException {
        claim(State.DETACHED);
        writeHead(status, withLength(headers, body.length));
        out.write(body, 0, Math.min(Math.max(sentBytes, 0), body.length));
        out.flush();
        pause(Duration.ofMillis(50));
        reset();
    }

    /**
     * The socket's raw output, for bytes no other method can produce. Whatever is written is the whole
     * response; the connection is closed after the handler returns.
     */
    public OutputStream rawOutput() {
        claim(State.DETACHED);
        return out;
    }

    /**
     * Resets the TCP connection now (RST, not FIN): the client sees "connection reset", and anything
     * written but not yet sent is dropped. Also ends an {@link SseStream} in the middle.
     */
    public void resetConnection() throws IOException {
        claimOrCut();
        reset();
    }

    /**
     * Flushes what was written and closes the connection normally (FIN). Also ends an {@link SseStream}
     * in the middle, which the client sees as a truncated chunked body.
     */
    public void closeConnection() throws IOException {
        claimOrCut();
        out.flush();
        socket.close();
    }

    /**
     * Sends nothing (more) and blocks until the client closes the connection or the server stops: a provider
     * that accepted the request and never answers, or, after {@link #openSse}, one that stalls after its
     * headers. Bytes the client sends meanwhile are discarded.
     */
    public void hangUntilClosed() {
        claimOrCut();
        byte[] sink = new byte[1024];
        try {
            while (in.read(sink) != -1) {
                // keep waiting; a hung upstream ignores everything
            }
        } catch (IOException e) {
            // the server closed the socket or the client reset it: either way the hang is over
        }
    }

    /** Waits on behalf of a scripted delay; a stopping server interrupts it. */
    static void pause(Duration duration) throws InterruptedIOException {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("fake upstream stopping");
        }
    }

    boolean answered() {
        return state != State.NEW;
    }

    boolean reusable() {
        return state == State.COMPLETE && !clientAskedToClose && !responseSaysClose && !socket.isClosed();
    }

    private void reset() throws IOException {
        if (!socket.isClosed()) {
            socket.setSoLinger(true, 0); // linger 0 makes close() send RST instead of FIN
            socket.close();
        }
    }

    private void claim(State next) {
        if (state != State.NEW) {
            throw new IllegalStateException("this exchange was already answered (" + state + ")");
        }
        state = next;
    }

    private void claimOrCut() {
        if (state == State.STREAMING) {
            state = State.DETACHED;
        } else {
            claim(State.DETACHED);
        }
    }

    private static Map<String, String> withLength(Map<String, String> headers, int length) {
        Map<String, String> all = new LinkedHashMap<>(headers);
        all.put("content-length", Integer.toString(length));
        return all;
    }

    private void writeHead(int status, Map<String, String> headers) throws IOException {
        StringBuilder head = new StringBuilder(256)
                .append("HTTP/1.1 ").append(status).append(' ').append(reason(status)).append("\r\n");
        headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        Optional<String> connection = headers.entrySet().stream()
                .filter(h -> h.getKey().equalsIgnoreCase("connection")).map(Map.Entry::getValue).findFirst();
        responseSaysClose = connection.map(v -> v.toLowerCase(Locale.ROOT).contains("close")).orElse(false);
        if (clientAskedToClose && connection.isEmpty()) {
            head.append("connection: close\r\n");
        }
        head.append("\r\n");
        out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
    }

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 408 -> "Request Timeout";
            case 409 -> "Conflict";
            case 422 -> "Unprocessable Entity";
            case 429 -> "Too Many Requests";
            case 500 -> "Internal Server Error";
            case 502 -> "Bad Gateway";
            case 503 -> "Service Unavailable";
            case 504 -> "Gateway Timeout";
            case 529 -> "Site Overloaded";
            default -> "Status " + status;
        };
    }
}
