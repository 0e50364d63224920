package dev.switchboard.engine.media;

import java.util.Objects;

/**
 * A URL the gateway would not or could not fetch. The message is safe to show to the caller: it never
 * names an address the URL resolved to (that would map the internal network for an attacker).
 */
public final class ImageFetchException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Why the fetch failed. */
    public enum Reason {
        /** Not an absolute http(s) URL without credentials. */
        BAD_URL,
        /** The host resolves to an address the guard refuses (loopback, private, link-local...). */
        NOT_ALLOWED,
        UNRESOLVABLE,
        UNREACHABLE,
        TIMEOUT,
        TOO_LARGE,
        NOT_AN_IMAGE,
        HTTP_STATUS,
        TOO_MANY_REDIRECTS,
        /** The server's answer was not readable HTTP/1.1. */
        PROTOCOL
    }

    private final Reason reason;

    public ImageFetchException(Reason reason, String message) {
        super(message, null, false, false);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    public Reason reason() {
        return reason;
    }
}
