package dev.switchboard.server.config;

import java.util.Objects;

/**
 * One thing wrong with a configuration: where it is and what to do about it. {@code line} and
 * {@code column} count from 1; they are 0 when the problem concerns a whole source (an unreadable file,
 * an environment variable) rather than a place in it.
 */
public record ConfigProblem(String source, int line, int column, String message) {
    public ConfigProblem {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(message, "message");
        if (line < 0 || column < 0) {
            throw new IllegalArgumentException("line and column must not be negative");
        }
    }

    /** {@code file:line:column: message}, the shape compilers use, so editors and terminals can jump to it. */
    public String render() {
        if (line == 0) {
            return source + ": " + message;
        }
        return column == 0 ? source + ":" + line + ": " + message : source + ":" + line + ":" + column + ": " + message;
    }

    @Override
    public String toString() {
        return render();
    }
}
