package dev.switchboard.model;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The log probability of one generated token, and of the most likely alternatives at its place (in the
 * order the provider gave them; empty when none were asked for). {@code bytes} is the token's UTF-8 bytes
 * when the provider gave them (a token may be part of a multi-byte character). The alternatives have no
 * alternatives of their own.
 */
public record TokenLogprob(String token, double logprob, Optional<List<Integer>> bytes, List<TokenLogprob> top) {
    public TokenLogprob {
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(bytes, "bytes");
        bytes = bytes.map(List::copyOf);
        top = List.copyOf(top);
    }

    /** A token without bytes or alternatives. */
    public static TokenLogprob of(String token, double logprob) {
        return new TokenLogprob(token, logprob, Optional.empty(), List.of());
    }
}
