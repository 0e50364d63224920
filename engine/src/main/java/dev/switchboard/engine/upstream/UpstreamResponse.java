package dev.switchboard.engine.upstream;

import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;

/**
 * An upstream HTTP response whose headers have arrived. The body is read from {@link #body()};
 * {@link #close()} releases the connection and, when the body was not read to its end, aborts the
 * upstream request (that is how a client disconnect cancels generation upstream).
 */
public interface UpstreamResponse extends AutoCloseable {
    int status();

    Optional<String> header(String name);

    /** The body as a stream; reads are subject to the attempt's idle and total deadlines. */
    InputStream body();

    /** The whole body (for non-streamed answers and error bodies). */
    default byte[] readAll() throws IOException {
        return body().readAllBytes();
    }

    /**
     * The caller has all it wants of a body that is about to end (a stream's stop event came): what little
     * is left (an end marker) is read within a short grace so the connection can be reused, and the
     * response is closed; a provider that lingers has its connection closed instead.
     */
    void closeAfterEnd();

    @Override
    void close();
}
