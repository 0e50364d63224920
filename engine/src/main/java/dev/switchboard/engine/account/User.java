package dev.switchboard.engine.account;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A customer account as stored: who pays, under which plan, and how much pre-paid credit is left.
 *
 * @param id           opaque, stable id ({@code usr_...}), assigned at creation
 * @param name         unique name, used by the CLI and the dashboard login
 * @param email        unique (lower-cased) address, when one was given
 * @param plan         plan id, {@code payg} for pay-as-you-go; which models a plan covers is config
 * @param balanceNanos credit left, in nano-dollars; a snapshot as of the read
 * @param createdAt    creation time, millisecond precision
 * @param planExpiresAt when the plan ends (empty: it does not); from then on the user is pay-as-you-go
 */
public record User(String id, String name, Optional<String> email, String plan, long balanceNanos, Instant createdAt,
                   Optional<Instant> planExpiresAt) {

    /** The pay-as-you-go plan every user has unless told otherwise. */
    public static final String PAYG = "payg";

    public User {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(email, "email");
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(planExpiresAt, "planExpiresAt");
    }

    /** A user whose plan does not expire. */
    public User(String id, String name, Optional<String> email, String plan, long balanceNanos, Instant createdAt) {
        this(id, name, email, plan, balanceNanos, createdAt, Optional.empty());
    }

    /** The plan in force at {@code now}: {@link #plan()} until it expires, {@link #PAYG} from then on. */
    public String activePlan(Instant now) {
        return planExpiresAt.filter(end -> !now.isBefore(end)).isPresent() ? PAYG : plan;
    }
}
