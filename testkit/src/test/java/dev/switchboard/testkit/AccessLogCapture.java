package dev.switchboard.testkit;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.LoggerFactory;
import org.slf4j.event.KeyValuePair;

/**
 * Collects the gateway's access lines (logger {@code switchboard.access}, one per request) while it is
 * open, so a test can check what an operator would read. The access logger is switched to INFO for the
 * time and restored on {@link #close()}; several captures may be open at once.
 */
public final class AccessLogCapture implements AutoCloseable {
    private static final String ACCESS_LOGGER = "switchboard.access";

    /** One access line: its key-value pairs, values as text. */
    public record Line(Map<String, String> fields) {
        public Line {
            fields = Map.copyOf(fields);
        }

        public Optional<String> field(String key) {
            return Optional.ofNullable(fields.get(key));
        }

        public int status() {
            return Integer.parseInt(fields.getOrDefault("status", "0"));
        }

        public String path() {
            return fields.getOrDefault("path", "");
        }
    }

    private final Logger logger;
    private final Level previous;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    private AccessLogCapture() {
        logger = (Logger) LoggerFactory.getLogger(ACCESS_LOGGER);
        previous = logger.getLevel();
        appender.start();
        logger.addAppender(appender);
        logger.setLevel(Level.INFO);
    }

    public static AccessLogCapture open() {
        return new AccessLogCapture();
    }

    /** The lines logged since the capture was opened or last {@link #clear() cleared}, oldest first. */
    public List<Line> lines() {
        synchronized (appender.list) {
            return appender.list.stream().map(AccessLogCapture::line).toList();
        }
    }

    /**
     * The first line that matches, waiting for it: the edge writes its line after the response has gone out,
     * so a client can see the answer before the line exists. Fails after a generous 10 seconds.
     */
    public Line await(java.util.function.Predicate<Line> matching) {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (true) {
            Optional<Line> line = lines().stream().filter(matching).findFirst();
            if (line.isPresent()) {
                return line.get();
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no matching access line; lines: " + lines());
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }

    public void clear() {
        synchronized (appender.list) {
            appender.list.clear();
        }
    }

    private static Line line(ILoggingEvent event) {
        Map<String, String> fields = new LinkedHashMap<>();
        List<KeyValuePair> pairs = event.getKeyValuePairs();
        if (pairs != null) {
            pairs.forEach(kv -> fields.put(kv.key, String.valueOf(kv.value)));
        }
        return new Line(fields);
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        logger.setLevel(previous);
        appender.stop();
    }
}
