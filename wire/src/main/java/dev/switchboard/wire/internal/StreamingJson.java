package dev.switchboard.wire.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.switchboard.wire.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;

/**
 * JSON written with a streaming generator straight onto the text being built, for the frames a stream writer sends
 * most (one per delta): no tree per frame, no intermediate string. The bytes are those {@link Json#write} gives for the
 * equivalent tree (same factory, same escaping); a payload is one line, since line breaks inside strings are escaped.
 *
 * <p>Not part of the wire API: formats share it, callers outside {@code wire} must not.
 */
public final class StreamingJson {
    private StreamingJson() {
    }

    /** A generator appending to {@code out}; close it (try-with-resources) to have everything written. */
    public static JsonGenerator onto(StringBuilder out) {
        try {
            return Json.MAPPER.getFactory().createGenerator(new Appending(out));
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringBuilder does not fail
        }
    }

    /** What a generator that wrote into a {@link StringBuilder} failed with: nothing can, so it is a bug. */
    public static IllegalStateException failed(IOException e) {
        return new IllegalStateException("cannot write JSON into memory", e);
    }

    /** A {@link Writer} into a {@link StringBuilder}, without the locking of {@link java.io.StringWriter}. */
    private static final class Appending extends Writer {
        private final StringBuilder sb;

        Appending(StringBuilder sb) {
            this.sb = sb;
        }

        @Override
        public void write(char[] cbuf, int off, int len) {
            sb.append(cbuf, off, len);
        }

        @Override
        public void write(String str, int off, int len) {
            sb.append(str, off, off + len);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
