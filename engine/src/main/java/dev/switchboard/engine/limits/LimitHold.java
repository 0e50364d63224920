package dev.switchboard.engine.limits;

import java.util.List;
import java.util.Objects;

/**
 * What a granted check reserved for one request, handed back to the store to settle or release it: the request's
 * id (its entry in every window), the limits it was counted in, the tokens reserved in each token limit, and the
 * UTC day (days since the epoch) its daily tokens were counted in, so a request that runs past midnight is
 * corrected in the day it was admitted in.
 */
public record LimitHold(String requestId, List<Limit> limits, long tokens, long epochDay) {
    public LimitHold {
        Objects.requireNonNull(requestId, "requestId");
        limits = List.copyOf(limits);
        if (tokens < 0) {
            throw new IllegalArgumentException("reserved tokens are 0 or more: " + tokens);
        }
    }
}
