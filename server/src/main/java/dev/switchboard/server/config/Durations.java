package dev.switchboard.server.config;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as operators write them: a positive whole number and one unit, {@code ms}, {@code s},
 * {@code m} or {@code h} ({@code 500ms}, {@code 5s}, {@code 10m}, {@code 1h}). A bare number is refused:
 * whether {@code 60} means seconds or milliseconds is exactly the kind of guess that breaks production.
 */
final class Durations {
    static final String EXPECTED = "a positive whole number with a unit ms, s, m or h, e.g. 500ms, 5s, 10m, 1h";

    private static final Pattern FORMAT = Pattern.compile("(\\d{1,12})(ms|s|m|h)");

    private Durations() {
    }

    /** The duration, or empty when {@code text} is not in the accepted form or is zero. */
    static Optional<Duration> parse(String text) {
        Matcher m = FORMAT.matcher(text.trim());
        if (!m.matches()) {
            return Optional.empty();
        }
        long n = Long.parseLong(m.group(1));
        if (n == 0) {
            return Optional.empty();
        }
        return Optional.of(switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> throw new IllegalStateException(m.group(2));
        });
    }
}
