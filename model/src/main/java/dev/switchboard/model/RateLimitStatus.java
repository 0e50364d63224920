package dev.switchboard.model;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a caller stands against its rate limits after admission (or at its refusal): the tightest request
 * limit and the tightest token limit that apply to it. The edge renders it as the headers clients read
 * ({@code x-ratelimit-*}, and {@code anthropic-ratelimit-*} on the messages endpoints). Format-neutral.
 *
 * @param requests the request limit with the fewest requests left, when the caller has one
 * @param tokens   the token limit with the fewest tokens left, when the caller has one
 */
public record RateLimitStatus(Optional<Window> requests, Optional<Window> tokens) {
    public RateLimitStatus {
        Objects.requireNonNull(requests, "requests");
        Objects.requireNonNull(tokens, "tokens");
    }

    /**
     * One limit: its ceiling, what is left of it now, and when it is whole again.
     *
     * @param limit     the ceiling (requests or tokens)
     * @param remaining what is left, 0 or more
     * @param resetAt   when the limit is fully replenished if nothing more is used
     */
    public record Window(long limit, long remaining, Instant resetAt) {
        public Window {
            Objects.requireNonNull(resetAt, "resetAt");
            if (limit < 0 || remaining < 0) {
                throw new IllegalArgumentException("limit and remaining are 0 or more: " + limit + ", " + remaining);
            }
        }
    }

    /** Whether there is anything to tell. */
    public boolean isEmpty() {
        return requests.isEmpty() && tokens.isEmpty();
    }
}
