package dev.switchboard.engine.limits;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Where one limit stands at a check: what is left after the check (after this request's reservation when it was
 * granted), when the limit is whole again, and, when this limit alone refused the request, from when it would
 * have room for it.
 *
 * @param remaining    0 or more
 * @param resetAt      when the limit is fully replenished if nothing more is used
 * @param refusedUntil when the request would fit, if this limit refuses it; {@link Instant#MAX} when it never
 *                     can (its estimate alone exceeds the ceiling)
 */
public record Tally(Limit limit, long remaining, Instant resetAt, Optional<Instant> refusedUntil) {
    public Tally {
        Objects.requireNonNull(limit, "limit");
        Objects.requireNonNull(resetAt, "resetAt");
        Objects.requireNonNull(refusedUntil, "refusedUntil");
        remaining = Math.max(0, remaining);
    }

    public boolean refuses() {
        return refusedUntil.isPresent();
    }
}
