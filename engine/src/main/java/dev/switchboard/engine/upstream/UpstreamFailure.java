package dev.switchboard.engine.upstream;

import dev.switchboard.model.GatewayError;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Why one upstream attempt failed, and whether the next target may be tried (docs/contracts.md §1).
 * {@code upstreamError} is the provider's own error translated to the gateway's terms: it is shown to the
 * caller only when the failure is the caller's fault (a non-retryable 4xx). The message never contains
 * keys or credentialed URLs.
 */
public final class UpstreamFailure extends RuntimeException {

    /** The class of failure. */
    public enum Kind {
        CONNECT, FIRST_BYTE_TIMEOUT, IDLE_TIMEOUT, TOTAL_TIMEOUT, RESET, HTTP_STATUS, EMPTY_STREAM, TRUNCATED, PROTOCOL,
        /** The gateway itself ran out of a local resource (file descriptors): no other target would fare better. */
        LOCAL_RESOURCE
    }

    /** HTTP statuses worth another target: the next provider may well succeed. */
    public static final Set<Integer> RETRYABLE_STATUSES = GatewayError.RETRYABLE_STATUSES;

    private final Kind kind;
    private final int status;
    private final Optional<Duration> retryAfter;
    private final GatewayError upstreamError;

    private UpstreamFailure(Kind kind, int status, String detail, Optional<Duration> retryAfter,
                            GatewayError upstreamError) {
        super(detail, null, false, false);
        this.kind = Objects.requireNonNull(kind);
        this.status = status;
        this.retryAfter = retryAfter;
        this.upstreamError = upstreamError;
    }

    public static UpstreamFailure of(Kind kind, String detail) {
        return new UpstreamFailure(kind, 0, detail, Optional.empty(),
                GatewayError.upstreamUnavailable(detail));
    }

    /** An HTTP error status from the provider, with the provider's error already translated. */
    public static UpstreamFailure http(int status, GatewayError upstreamError, Optional<Duration> retryAfter) {
        return new UpstreamFailure(Kind.HTTP_STATUS, status, "HTTP " + status + ": " + upstreamError.message(),
                retryAfter, upstreamError);
    }

    public Kind kind() {
        return kind;
    }

    /** The HTTP status for {@link Kind#HTTP_STATUS}, else 0. */
    public int status() {
        return status;
    }

    public Optional<Duration> retryAfter() {
        return retryAfter;
    }

    public GatewayError upstreamError() {
        return upstreamError;
    }

    /**
     * The gateway could not open a connection because it is out of file descriptors (or another local
     * resource): a 503 that says so, shown to the caller as it is, not a provider's failure.
     */
    public static UpstreamFailure outOfDescriptors() {
        String message = "The gateway is out of file descriptors (too many connections open at once); "
                + "try again shortly.";
        return new UpstreamFailure(Kind.LOCAL_RESOURCE, 0, message, Optional.empty(),
                GatewayError.upstreamUnavailable(message));
    }

    /** Whether another target (or key) may succeed where this attempt failed. */
    public boolean retryable() {
        return kind != Kind.LOCAL_RESOURCE && (kind != Kind.HTTP_STATUS || RETRYABLE_STATUSES.contains(status));
    }

    /** A provider credential problem: the next key of the same provider should be tried. */
    public boolean keyProblem() {
        return kind == Kind.HTTP_STATUS && (status == 401 || status == 403 || status == 429);
    }

    /** Short label for logs, metrics and the caller's summary (e.g. {@code 500}, {@code reset}, {@code timeout}). */
    public String label() {
        return switch (kind) {
            case HTTP_STATUS -> Integer.toString(status);
            case CONNECT -> "connect failed";
            case FIRST_BYTE_TIMEOUT -> "first-byte timeout";
            case IDLE_TIMEOUT -> "idle timeout";
            case TOTAL_TIMEOUT -> "total timeout";
            case RESET -> "connection reset";
            case EMPTY_STREAM -> "empty stream";
            case TRUNCATED -> "truncated stream";
            case PROTOCOL -> "bad response";
            case LOCAL_RESOURCE -> "gateway out of file descriptors";
        };
    }
}
