package dev.switchboard.engine.catalog;

import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * A subscription plan as configured under {@code plans:}: its id, the models it covers (ids, aliases
 * resolved; a model may also name the plans that cover it), and the optional per-user caps of its
 * subscribers, enforced by the limits: requests per minute and tokens per UTC day.
 *
 * <p>A model a user's active plan covers costs the balance nothing; its usage is still recorded.
 */
public record Plan(String id, List<String> models, OptionalInt rpm, OptionalLong dailyTokens) {
    public Plan {
        Objects.requireNonNull(id, "id");
        models = List.copyOf(models);
        Objects.requireNonNull(rpm, "rpm");
        Objects.requireNonNull(dailyTokens, "dailyTokens");
        if (rpm.isPresent() && rpm.getAsInt() <= 0 || dailyTokens.isPresent() && dailyTokens.getAsLong() <= 0) {
            throw new IllegalArgumentException("plan " + id + ": rpm and daily_tokens must be positive when given");
        }
    }

    /** A plan without caps. */
    public static Plan of(String id, List<String> models) {
        return new Plan(id, models, OptionalInt.empty(), OptionalLong.empty());
    }
}
