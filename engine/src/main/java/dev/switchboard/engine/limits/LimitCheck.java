package dev.switchboard.engine.limits;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The result of one check-and-reserve: one tally per limit (in the order asked), and the hold when every limit
 * had room (then all were reserved); empty when any refused (then nothing was).
 */
public record LimitCheck(List<Tally> tallies, Optional<LimitHold> hold) {
    public LimitCheck {
        tallies = List.copyOf(tallies);
        Objects.requireNonNull(hold, "hold");
    }

    public boolean granted() {
        return hold.isPresent();
    }
}
