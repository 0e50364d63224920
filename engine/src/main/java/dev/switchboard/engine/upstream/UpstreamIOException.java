package dev.switchboard.engine.upstream;

import java.io.IOException;

/** A failed read of an upstream body, already classified for the failover loop. */
public final class UpstreamIOException extends IOException {
    private final UpstreamFailure failure;

    public UpstreamIOException(UpstreamFailure failure) {
        super(failure.getMessage(), null);
        this.failure = failure;
    }

    public UpstreamFailure failure() {
        return failure;
    }
}
