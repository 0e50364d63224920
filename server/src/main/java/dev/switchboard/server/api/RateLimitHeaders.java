package dev.switchboard.server.api;

import dev.switchboard.model.RateLimitStatus;
import dev.switchboard.server.http.Exchange;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The rate-limit headers of a limited key's responses, in the forms the official SDKs and their users read:
 * OpenAI's {@code x-ratelimit-limit-requests}, {@code -remaining-requests}, {@code -reset-requests} (a duration
 * such as {@code 6m0s}) and the {@code -tokens} trio on every endpoint, and on the messages endpoints also
 * Anthropic's {@code anthropic-ratelimit-requests-limit}, {@code -remaining}, {@code -reset} (an RFC 3339 instant)
 * and the {@code tokens} ones. A key without limits gets none.
 */
final class RateLimitHeaders {
    private RateLimitHeaders() {
    }

    static void write(Exchange ex, RateLimitStatus status, Instant now, boolean anthropic) {
        status.requests().ifPresent(w -> window(ex, w, now, "requests", anthropic));
        status.tokens().ifPresent(w -> window(ex, w, now, "tokens", anthropic));
    }

    private static void window(Exchange ex, RateLimitStatus.Window w, Instant now, String what, boolean anthropic) {
        ex.header("x-ratelimit-limit-" + what, Long.toString(w.limit()));
        ex.header("x-ratelimit-remaining-" + what, Long.toString(w.remaining()));
        ex.header("x-ratelimit-reset-" + what, duration(Duration.between(now, w.resetAt())));
        if (anthropic) {
            ex.header("anthropic-ratelimit-" + what + "-limit", Long.toString(w.limit()));
            ex.header("anthropic-ratelimit-" + what + "-remaining", Long.toString(w.remaining()));
            ex.header("anthropic-ratelimit-" + what + "-reset", w.resetAt().truncatedTo(ChronoUnit.SECONDS).toString());
        }
    }

    /** OpenAI's duration form: {@code 250ms}, {@code 12s}, {@code 1.5s}, {@code 6m0s}, {@code 3h2m0s}. */
    static String duration(Duration d) {
        long ms = Math.max(0, d.toMillis());
        if (ms < 1000) {
            return ms + "ms";
        }
        long h = ms / 3_600_000;
        long m = ms % 3_600_000 / 60_000;
        long s = ms % 60_000 / 1000;
        long frac = ms % 1000;
        String seconds = frac == 0 ? s + "s" : s + "." + trimmed(frac) + "s";
        if (h > 0) {
            return h + "h" + m + "m" + seconds;
        }
        return m > 0 ? m + "m" + seconds : seconds;
    }

    /** {@code 500} as {@code 5}, {@code 50} as {@code 05}, {@code 125} as {@code 125}: the digits after the point. */
    private static String trimmed(long millis) {
        long digits = millis;
        int width = 3;
        while (digits % 10 == 0) {
            digits /= 10;
            width--;
        }
        String d = Long.toString(digits);
        return "0".repeat(width - d.length()) + d;
    }

    /** The exchange's hook: writes the headers the pipeline's trace holds, if the request got that far. */
    static Runnable hook(Exchange ex, java.time.Clock clock, boolean anthropic) {
        return () -> ex.trace().flatMap(t -> t.rateLimits()).filter(s -> !s.isEmpty())
                .ifPresent(s -> write(ex, s, clock.instant(), anthropic));
    }
}
