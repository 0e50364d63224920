package dev.switchboard.engine.idempotency;

import java.util.List;
import java.util.Objects;

/**
 * The answer a request with an {@code Idempotency-Key} gave, as its caller received it, so that a repeat of the
 * request gets the same bytes without reaching a provider again.
 *
 * @param requestId   the request that produced it (its {@code x-request-id})
 * @param status      the HTTP status
 * @param contentType the response's content type
 * @param streamed    whether it was sent as a stream (a replay is streamed too)
 * @param headers     the answer's own response headers (name, value), in the order they were set
 * @param body        the whole response body
 */
public record StoredAnswer(String requestId, int status, String contentType, boolean streamed, List<Header> headers,
                           byte[] body) {
    /** One response header. */
    public record Header(String name, String value) {
        public Header {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, "value");
        }
    }

    public StoredAnswer {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(contentType, "contentType");
        headers = List.copyOf(headers);
        body = body.clone();
    }

    @Override
    public byte[] body() {
        return body.clone();
    }
}
