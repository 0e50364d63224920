package dev.switchboard.model;

import java.util.Objects;

/**
 * Provider-opaque proof attached to reasoning or to the part that followed it (Anthropic thinking
 * signatures, Gemini thoughtSignature, encrypted reasoning of the Responses format).
 *
 * <p>{@code origin} names the wire format that produced the value ({@code anthropic}, {@code gemini},
 * {@code openai}, ...). A translator sends a signature upstream only when the origin is its own
 * format: a signature is meaningless (and rejected) anywhere else, yet must survive untouched while a
 * conversation passes through other formats.
 */
public record Signature(String origin, String value) {
    public Signature {
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(value, "value");
    }

    public boolean isFrom(String format) {
        return origin.equals(format);
    }
}
