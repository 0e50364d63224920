package dev.switchboard.model;

import java.util.Objects;

/** Thrown to abort a request with an error the caller should see; the edge renders {@link #error()} in the caller's format. */
public final class GatewayException extends RuntimeException {
    private final GatewayError error;

    public GatewayException(GatewayError error) {
        super(error.message(), null, false, false);
        this.error = Objects.requireNonNull(error, "error");
    }

    public GatewayError error() {
        return error;
    }
}
