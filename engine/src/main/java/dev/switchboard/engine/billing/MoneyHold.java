package dev.switchboard.engine.billing;

import dev.switchboard.engine.account.Usd;
import dev.switchboard.engine.pipeline.AdmissionRequest;
import dev.switchboard.engine.pipeline.Admitted;
import dev.switchboard.engine.route.Candidate;
import java.util.Optional;

/**
 * What money's admission granted one request: how much is held for it. Asked before each candidate: a
 * candidate the caller's plan covers may always be tried; one the caller may not use at all is skipped; a
 * pay-as-you-go one whose worst case is above the hold raises the hold first, and is skipped as unaffordable
 * when the balance cannot cover the difference, so the balance never goes below zero. Used by the request's
 * thread only.
 */
public final class MoneyHold implements Admitted {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(MoneyHold.class);
    private final MoneyAdmission admission;
    private final AdmissionRequest request;
    private long heldNanos;

    MoneyHold(MoneyAdmission admission, AdmissionRequest request) {
        this.admission = admission;
        this.request = request;
    }

    /** What is held for the request now. */
    public long heldNanos() {
        return heldNanos;
    }

    void held(long nanos) {
        heldNanos = nanos;
    }

    @Override
    public Optional<String> refusal(Candidate candidate) {
        return switch (admission.plans().access(request.caller().plan(), candidate.model())) {
            case COVERED -> Optional.empty();
            case NOT_IN_PLAN, NEEDS_SUBSCRIPTION -> Optional.of("the caller's plan does not cover it and it is not offered "
                    + "pay-as-you-go");
            case PAY_AS_YOU_GO -> {
                WorstCase worst = WorstCase.of(candidate);
                if (worst.nanos() <= heldNanos) {
                    yield Optional.empty();
                }
                yield switch (raised(worst.nanos())) {
                    case HELD -> {
                        heldNanos = worst.nanos();
                        yield Optional.empty();
                    }
                    case SHORT_OF_BALANCE -> Optional.of("unaffordable: its worst case is " + Usd.format(worst.nanos())
                            + " USD and the balance cannot cover it");
                    case OVER_KEY_BUDGET -> Optional.of("over the key's budget: its worst case is "
                            + Usd.format(worst.nanos()) + " USD and the key's budget cannot cover it");
                };
            }
        };
    }

    private Reservation raised(long toNanos) {
        try {
            return admission.store().raise(admission.hold(request, toNanos));
        } catch (RuntimeException e) {
            // The database failed: this fallback is skipped like an unaffordable one; the request keeps its hold.
            LOG.atWarn().addKeyValue("request_id", request.requestId()).setCause(e).log("could not raise the hold");
            return Reservation.SHORT_OF_BALANCE;
        }
    }
}
