package dev.switchboard.engine.catalog;

import java.time.Duration;
import java.util.Objects;

/**
 * Per-provider time limits of one upstream attempt: {@code connect} (TCP/TLS), {@code firstByte} (request
 * sent to the first response event), {@code idle} (longest silence inside a stream) and {@code total}
 * (the whole attempt).
 */
public record Timeouts(Duration connect, Duration firstByte, Duration idle, Duration total) {
    public static final Timeouts DEFAULT = new Timeouts(Duration.ofSeconds(5), Duration.ofSeconds(60),
            Duration.ofSeconds(60), Duration.ofMinutes(10));

    public Timeouts {
        Objects.requireNonNull(connect, "connect");
        Objects.requireNonNull(firstByte, "firstByte");
        Objects.requireNonNull(idle, "idle");
        Objects.requireNonNull(total, "total");
    }
}
