package dev.switchboard.engine.limits;

import dev.switchboard.engine.pipeline.Admitted;
import dev.switchboard.engine.pipeline.RequestOutcome;
import dev.switchboard.engine.pipeline.Settlement;

/**
 * The limits half of settlement: corrects the request's token reservations to what it actually used (input +
 * output), or to nothing when no model answered (a failed request does not consume token caps), and ends its
 * parallel slot. Its place in the request windows stays: it was a request.
 */
public final class LimitSettlement implements Settlement {
    private final LimitStore store;

    public LimitSettlement(LimitStore store) {
        this.store = store;
    }

    @Override
    public void settle(Admitted admitted, RequestOutcome outcome) {
        if (admitted instanceof LimitsAdmitted granted && !onlyRequestWindows(granted.hold())) {
            long used = outcome.answered().isPresent() ? outcome.usage().totalTokens() : 0;
            store.settle(granted.hold(), used);
        }
    }

    /** A request counted only in request windows has nothing to settle (it stays a request): no store round trip. */
    private static boolean onlyRequestWindows(LimitHold hold) {
        return hold.limits().stream().allMatch(l -> l.kind() == LimitKind.REQUESTS_PER_MINUTE);
    }
}
