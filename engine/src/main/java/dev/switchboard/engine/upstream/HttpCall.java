package dev.switchboard.engine.upstream;

import java.net.URI;
import java.util.Map;
import java.util.Objects;

/**
 * One HTTP POST to an upstream provider: absolute URI, headers (credentials included — never log them),
 * and the JSON body. {@code streaming} tells the client that the body is an event stream.
 */
public record HttpCall(URI uri, Map<String, String> headers, byte[] body, boolean streaming) {
    public HttpCall {
        Objects.requireNonNull(uri, "uri");
        headers = Map.copyOf(headers);
        Objects.requireNonNull(body, "body");
    }

    /** Never prints headers: they hold provider keys. */
    @Override
    public String toString() {
        return "HttpCall[POST " + uri.getScheme() + "://" + uri.getHost() + ":" + uri.getPort() + uri.getPath() + "]";
    }
}
