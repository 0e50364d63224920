package dev.switchboard.server.config;

import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Byte sizes as operators write them: a positive whole number and a unit, {@code B}, {@code KB}, {@code MB} or
 * {@code GB}, counted in 1024s ({@code 32MB} is 33,554,432 bytes). A bare number is refused, as for durations.
 */
final class Sizes {
    static final String EXPECTED = "a positive whole number with a unit B, KB, MB or GB, e.g. 512KB, 32MB";

    private static final Pattern FORMAT = Pattern.compile("(\\d{1,10})\\s*(B|KB|MB|GB)", Pattern.CASE_INSENSITIVE);

    private Sizes() {
    }

    /** The size in bytes, or empty when {@code text} is not in the accepted form, is zero, or exceeds {@code max}. */
    static OptionalLong parse(String text, long max) {
        Matcher m = FORMAT.matcher(text.trim());
        if (!m.matches()) {
            return OptionalLong.empty();
        }
        long n = Long.parseLong(m.group(1));
        long bytes = switch (m.group(2).toUpperCase(java.util.Locale.ROOT)) {
            case "B" -> n;
            case "KB" -> n << 10;
            case "MB" -> n << 20;
            case "GB" -> n << 30;
            default -> throw new IllegalStateException(m.group(2));
        };
        return n == 0 || bytes > max || bytes < n ? OptionalLong.empty() : OptionalLong.of(bytes);
    }
}
