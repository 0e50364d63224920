package dev.switchboard.engine.account;

import java.util.Objects;
import java.util.Optional;

/**
 * What it takes to create a user; validated on construction, so holding one means it is acceptable
 * (uniqueness aside, which only the store can tell). The password is plain text here and is hashed
 * by {@link Users#create} before anything is stored; {@link #toString()} never shows it.
 *
 * @param name         trimmed, 1..100 characters, no control characters
 * @param email        trimmed and lower-cased when present
 * @param password     8..1024 characters when present (checked when hashed)
 * @param plan         a plan id such as {@code payg} or {@code pro}
 * @param balanceNanos opening balance, not negative
 * @throws AccountException INVALID naming the field ({@code name}, {@code email}, {@code plan},
 *         {@code balance_usd}) that is unacceptable
 */
public record NewUser(String name, Optional<String> email, Optional<String> password, String plan, long balanceNanos) {

    public NewUser {
        name = AccountFields.name("name", Objects.requireNonNull(name, "name"));
        email = Objects.requireNonNull(email, "email").map(AccountFields::email);
        Objects.requireNonNull(password, "password");
        plan = AccountFields.plan(Objects.requireNonNull(plan, "plan"));
        if (balanceNanos < 0) {
            throw AccountException.invalid("balance_usd", "balance_usd: expected zero or more, got "
                    + Usd.format(balanceNanos));
        }
    }

    /** A pay-as-you-go user with only a name and an opening balance. */
    public static NewUser named(String name, long balanceNanos) {
        return new NewUser(name, Optional.empty(), Optional.empty(), User.PAYG, balanceNanos);
    }

    @Override
    public String toString() {
        return "NewUser[name=" + name + ", email=" + email + ", password=" + (password.isPresent() ? "[redacted]" : "none")
                + ", plan=" + plan + ", balanceNanos=" + balanceNanos + "]";
    }
}
