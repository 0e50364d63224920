package dev.switchboard.engine.account;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/** Creates and reads users: assigns ids and creation times, hashes passwords. */
public final class Users {

    private final AccountStore store;
    private final Passwords passwords;
    private final Clock clock;

    public Users(AccountStore store, Passwords passwords, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.passwords = Objects.requireNonNull(passwords, "passwords");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Creates the user; only a hash of the password is stored.
     *
     * @throws AccountException INVALID("password") for an unacceptable password; CONFLICT("name")
     *         or CONFLICT("email") when taken
     */
    public User create(NewUser spec) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        User user = new User(Ids.next("usr", now), spec.name(), spec.email(), spec.plan(), spec.balanceNanos(), now);
        store.createUser(user, spec.password().map(passwords::hash));
        return user;
    }

    /**
     * The user with this id.
     *
     * @throws AccountException NOT_FOUND when there is none
     */
    public User get(String userId) {
        return store.findUser(userId).orElseThrow(() -> AccountException.notFound("no user with id " + userId));
    }
}
