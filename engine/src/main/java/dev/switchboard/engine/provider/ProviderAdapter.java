package dev.switchboard.engine.provider;

import dev.switchboard.engine.upstream.UpstreamFailure;
import dev.switchboard.model.ChatResponse;
import java.util.List;

/**
 * Runs one attempt of a canonical request against one provider. Implementations translate with their
 * format's {@code wire} package and do I/O only through {@code UpstreamClient} (or none at all: the
 * simulator). They know nothing of failover: a failure is thrown as a classified {@link UpstreamFailure}
 * and the failover loop decides what happens next.
 */
public interface ProviderAdapter {

    /** A complete answer. The response's {@code model} is the upstream model name; the engine renames it. */
    ChatResponse complete(Attempt attempt);

    /** Opens a stream; the first event may still fail (the failover loop pulls it before committing). */
    EventSource stream(Attempt attempt);

    /** What of the attempt's request its upstream does not get, by field name; empty when everything goes. */
    default List<String> notCarried(Attempt attempt) {
        return List.of();
    }

    /** Convenience for failures the adapter detects itself. */
    static UpstreamFailure protocolError(String detail) {
        return UpstreamFailure.of(UpstreamFailure.Kind.PROTOCOL, detail);
    }
}
