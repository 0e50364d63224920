package dev.switchboard.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A Redis server of a test's own ({@code redis-server} from the PATH) on a free loopback port, without persistence,
 * which the test may stop and start again on the same port: for what happens while Redis is away. Never the
 * machine's shared Redis.
 */
public final class RedisServer implements AutoCloseable {
    private static final Duration START_WITHIN = Duration.ofSeconds(20);

    private final int port;
    private final Path dir;
    private Process process;

    private RedisServer(int port, Path dir) {
        this.port = port;
        this.dir = dir;
    }

    /** Starts one on a free port; fails the test (IllegalStateException) when it does not answer PING in time. */
    public static RedisServer start() {
        try {
            RedisServer server = new RedisServer(PortSupport.freeLoopbackPort(),
                    Files.createTempDirectory("switchboard-redis"));
            server.startAgain();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code redis://127.0.0.1:<port>} */
    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    /** Starts the server again on its port (after {@link #stop()}), empty. */
    public void startAgain() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("redis-server is already running on port " + port);
        }
        try {
            process = new ProcessBuilder(List.of("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "no", "--dir", dir.toString()))
                    .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start redis-server (is it installed?): " + e.getMessage(), e);
        }
        Instant deadline = Instant.now().plus(START_WITHIN);
        while (Instant.now().isBefore(deadline)) {
            if (answersPing()) {
                return;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for redis-server", e);
            }
        }
        throw new IllegalStateException("redis-server on port " + port + " did not answer within " + START_WITHIN);
    }

    /** Stops the server at once (as a crash would); its data is gone. */
    public void stop() {
        if (process == null) {
            return;
        }
        process.destroyForcibly();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean answersPing() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            s.setSoTimeout(500);
            s.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            byte[] buf = new byte[7];
            int n = s.getInputStream().read(buf);
            return n > 0 && new String(buf, 0, n, StandardCharsets.US_ASCII).startsWith("+PONG");
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() {
        stop();
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a leftover temp dir is harmless
        }
    }
}
